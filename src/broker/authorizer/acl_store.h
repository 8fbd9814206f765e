// SPDX-License-Identifier: Apache-2.0
//
// AclStore: the broker's ACLs, as CreateAcls, DescribeAcls and DeleteAcls change and read them,
// and as the authorizer looks them up (through its AclResourceIndex). Creating a binding that is
// already there does nothing and succeeds, as in Kafka. The number of ACLs is bounded
// (kDefaultMaxAcls unless told otherwise; Kafka has no such bound) and the memory they keep is
// counted for the broker's budget: names are the store's own copies, and a binding is charged
// acl_stored_bytes(binding) = kAclBindingOverheadBytes + 2 * resource name + principal + host
// bytes (the resource name twice: the binding's and the index's key). Those bytes can also be
// charged to a share of the broker's memory (set_memory_charge: the broker charges the groups'
// share of --max-memory), which then bounds the ACLs too.
// Not thread-safe: the broker's network thread owns it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "broker/authorizer/acl_binding.h"
#include "broker/authorizer/acl_resource_index.h"
#include "broker/runtime/memory_charge.h"

namespace kgroups::broker {

// What one stored binding costs besides its names: the binding itself, its tree node in the
// store, and its share of the index (a pointer in a bucket, the bucket's map node).
inline constexpr std::size_t kAclBindingOverheadBytes = sizeof(AclBinding) + 160;

// The bytes the store charges for `binding`.
std::size_t acl_stored_bytes(const AclBinding& binding);

// Why the store refused to create a binding.
struct AclCreateRefusal {
  enum class Reason {
    kInvalidBinding,  // acl_binding_refusal's message; Kafka answers INVALID_REQUEST
    kTooManyAcls,     // the store holds max_acls() bindings already
    kOutOfMemory,     // the memory charge has no room for the binding's bytes
  };
  Reason reason;
  std::string message;
};

// What DeleteAcls answers for one filter: the filter's refusal, or the bindings it deleted.
struct AclDeletion {
  std::optional<std::string> refusal;  // acl_filter_refusal's message (INVALID_REQUEST), or why
                                       // its matches were too many to list (too_many_matches)
  std::vector<AclBinding> deleted;
  bool too_many_matches = false;  // refused: its matches would pass remove_matching's max_listed
};

class AclStore {
 public:
  static constexpr std::size_t kDefaultMaxAcls = 10'000;

  explicit AclStore(std::size_t max_acls = kDefaultMaxAcls) : max_acls_(max_acls) {}
  AclStore(const AclStore&) = delete;
  AclStore& operator=(const AclStore&) = delete;

  // Where the store charges acl_stored_bytes() of each binding it adds (and gives them back
  // when it deletes it); an empty charge (the default) counts nothing. Set it while the store
  // is empty: bindings stored before were never charged. The charge must outlive the store's
  // use of it.
  void set_memory_charge(MemoryCharge charge) { memory_charge_ = std::move(charge); }

  // Stores the binding, or says why not (and changes nothing). A binding already stored is
  // accepted and not added.
  std::optional<AclCreateRefusal> create(const AclBinding& binding);

  // The stored bindings the filter matches, in the store's order.
  [[nodiscard]] std::vector<AclBinding> describe(const AclBindingFilter& filter) const;

  // Deletes what the filters match, one result per filter (Kafka's DeleteAcls): each filter
  // sees the store as it was before the call, so a binding two filters match is listed by both.
  // The results list at most `max_listed` bindings in all: a filter whose matches would take
  // the total past it deletes nothing and is refused (too_many_matches); later filters still
  // run.
  std::vector<AclDeletion> remove_matching(const std::vector<AclBindingFilter>& filters,
                                           std::size_t max_listed = SIZE_MAX);

  [[nodiscard]] const AclResourceIndex& index() const { return index_; }
  [[nodiscard]] std::size_t size() const { return bindings_.size(); }
  [[nodiscard]] std::size_t max_acls() const { return max_acls_; }
  [[nodiscard]] std::size_t stored_bytes() const { return stored_bytes_; }

 private:
  [[nodiscard]] AclDeletion matched_by(const AclBindingFilter& filter) const;
  void erase(const AclBinding& binding);

  std::size_t max_acls_;
  std::set<AclBinding> bindings_;  // owns them; the index points into it
  AclResourceIndex index_;
  std::size_t stored_bytes_ = 0;
  MemoryCharge memory_charge_;
};

}  // namespace kgroups::broker
