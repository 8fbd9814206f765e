// SPDX-License-Identifier: Apache-2.0
//
// Authorizer: whether a principal, connected from a host, may perform an operation on one
// resource, by Kafka's StandardAuthorizer rules over the ACLs of an AclStore:
//   - a super user (super.users) is always allowed;
//   - an ACL applies to the resource if it is LITERAL with its name, LITERAL "*", or PREFIXED
//     with a prefix of its name; it matches the request if its principal is the request's or
//     "User:*", its host is the request's or "*", and its operation is the request's or ALL;
//   - an ALLOW ACL for READ, WRITE, DELETE or ALTER also allows DESCRIBE, and one for
//     ALTER_CONFIGS also allows DESCRIBE_CONFIGS; a DENY ACL denies only its own operation (or
//     all, for ALL), so denying READ does not deny DESCRIBE;
//   - a matching DENY wins over any matching ALLOW;
//   - if no ACL applies to the resource at all, the answer is allow.everyone.if.no.acl.found
//     (false by default); if some apply but none allows, it is denied.
// The decision says which rule decided, for the broker's logs.
// Not thread-safe: used on the broker's network thread, with the store it reads.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "broker/authorizer/acl_binding.h"
#include "broker/authorizer/acl_store.h"

namespace kgroups::broker {

// The authorizer's two settings, Kafka's super.users and allow.everyone.if.no.acl.found.
struct AuthorizerConfig {
  std::vector<std::string> super_users;  // principals, "User:admin"
  bool allow_everyone_if_no_acl_found = false;
};

// super.users as Kafka reads it: principals separated by ';', spaces around each trimmed, empty
// entries skipped. Nothing if an entry is not "Type:name" (the message says which).
struct SuperUsersParse {
  std::vector<std::string> principals;
  std::optional<std::string> error;
};
SuperUsersParse parse_super_users(std::string_view setting);

// One thing to authorize: `principal` ("User:alice") from `host` wants `operation` on the
// resource of `resource_type` named `resource_name`.
struct AclAction {
  std::string_view principal;
  std::string_view host;
  AclOperation operation;
  AclResourceType resource_type;
  std::string_view resource_name;
};

struct AuthorizationDecision {
  enum class Rule {
    kSuperUser,         // allowed: the principal is a super user
    kAllowAcl,          // allowed by `acl`
    kDenyAcl,           // denied by `acl`
    kNoAclForResource,  // no ACL applies to the resource: allow.everyone.if.no.acl.found
    kNoAllowingAcl,     // ACLs apply to the resource, none allows this
  };
  bool allowed = false;
  Rule rule = Rule::kNoAllowingAcl;
  // The ACL that decided, for kAllowAcl and kDenyAcl: the store's own, valid until the store
  // changes (no copy on the request path).
  const AclBinding* acl = nullptr;
  std::size_t acls_examined = 0;  // ACLs applying to the resource that were looked at

  // Why, for a log line: "denied by (TOPIC:LITERAL:orders, User:bob from *, READ, DENY)".
  [[nodiscard]] std::string reason() const;
};

class Authorizer {
 public:
  Authorizer(const AclStore& acls, AuthorizerConfig config);

  [[nodiscard]] AuthorizationDecision authorize(const AclAction& action) const;
  // Kafka's Authorizer.authorizeByResourceType: whether the principal from the host may perform
  // `operation` on some resource of `resource_type` (InitProducerId asks it of WRITE on topics).
  // Yes if authorize() allows it on a resource named "hardcode" (a super user; an ALLOW "*" or
  // allow.everyone.if.no.acl.found), else no if a matching DENY names "*", else yes if a
  // matching ALLOW names "*", or a name or prefix that no matching DENY of the same literal name
  // or of a prefix of it covers. `action.resource_name` is ignored.
  [[nodiscard]] bool authorize_by_resource_type(const AclAction& action) const;
  [[nodiscard]] bool is_super_user(std::string_view principal) const;

 private:
  const AclStore& acls_;
  std::set<std::string, std::less<>> super_users_;
  bool allow_everyone_if_no_acl_found_;
};

}  // namespace kgroups::broker
