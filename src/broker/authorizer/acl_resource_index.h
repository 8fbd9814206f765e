// SPDX-License-Identifier: Apache-2.0
//
// AclResourceIndex: the ACL store's index by resource, so that authorizing one request looks at
// the ACLs that apply to its resource and not at every ACL. For each resource type it keeps the
// LITERAL bindings by name (the wildcard "*" is one such name) and the PREFIXED bindings in a map
// sorted by prefix; the prefixes of a name are found by stepping down that map from the name,
// jumping past every run of keys that diverge from it (as Kafka's StandardAuthorizerData walks its
// ACLs sorted by name), so a lookup costs a few map searches per prefix length that holds an ACL,
// not one per ACL. It keeps pointers: a binding stays where it is while indexed.
// Not thread-safe: the broker's network thread owns it.
#pragma once

#include <array>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "broker/authorizer/acl_binding.h"

namespace kgroups::broker {

class AclResourceIndex {
 public:
  // Called with each binding that applies; returns false to stop the walk.
  using AclVisitor = std::function<bool(const AclBinding&)>;

  // Adds a valid binding (acl_binding_refusal accepts it); it must stay put until removed.
  void add(const AclBinding& binding);
  void remove(const AclBinding& binding);

  // Visits every indexed binding of `type` whose pattern applies to the resource `name`: a
  // LITERAL binding with that name or the name "*", and a PREFIXED binding whose name is a prefix
  // of it. Returns false if the visitor stopped the walk.
  [[nodiscard]] bool visit_applying(AclResourceType type, std::string_view name,
                                    const AclVisitor& visit) const;

 private:
  using Bucket = std::vector<const AclBinding*>;
  using BucketsByName = std::map<std::string, Bucket, std::less<>>;
  struct ResourceTypeSection {
    BucketsByName literal;
    BucketsByName prefixed;
  };

  BucketsByName& buckets_for(const AclBinding& binding);
  [[nodiscard]] const ResourceTypeSection* section(AclResourceType type) const;
  static bool visit_literal(const BucketsByName& literal, std::string_view name,
                            const AclVisitor& visit);
  static bool visit_prefixes(const BucketsByName& prefixed, std::string_view name,
                             const AclVisitor& visit);

  std::array<ResourceTypeSection, 8> sections_;  // by AclResourceType code
};

}  // namespace kgroups::broker
