// SPDX-License-Identifier: Apache-2.0
#include "broker/authorizer/acl_store.h"

#include <utility>

namespace kgroups::broker {

std::size_t acl_stored_bytes(const AclBinding& binding) {
  return kAclBindingOverheadBytes + 2 * binding.resource_name.size() + binding.principal.size() +
         binding.host.size();
}

std::optional<AclCreateRefusal> AclStore::create(const AclBinding& binding) {
  if (auto refusal = acl_binding_refusal(binding)) {
    return AclCreateRefusal{AclCreateRefusal::Reason::kInvalidBinding, std::move(*refusal)};
  }
  if (bindings_.contains(binding)) return std::nullopt;
  if (bindings_.size() >= max_acls_) {
    return AclCreateRefusal{AclCreateRefusal::Reason::kTooManyAcls,
                            "Cannot create ACL " + describe_acl(binding) + ": the broker holds " +
                                std::to_string(max_acls_) + " ACLs, its limit"};
  }
  const std::size_t bytes = acl_stored_bytes(binding);
  if (!memory_charge_.hold(bytes)) {
    return AclCreateRefusal{AclCreateRefusal::Reason::kOutOfMemory,
                            "Cannot create ACL " + describe_acl(binding) +
                                ": the memory the broker keeps ACLs in has no room for its " +
                                std::to_string(bytes) + " bytes"};
  }
  const AclBinding& stored = *bindings_.insert(binding).first;
  index_.add(stored);
  stored_bytes_ += bytes;
  return std::nullopt;
}

std::vector<AclBinding> AclStore::describe(const AclBindingFilter& filter) const {
  std::vector<AclBinding> matched;
  for (const AclBinding& binding : bindings_) {
    if (filter.matches(binding)) matched.push_back(binding);
  }
  return matched;
}

AclDeletion AclStore::matched_by(const AclBindingFilter& filter) const {
  if (auto refusal = acl_filter_refusal(filter)) return AclDeletion{std::move(refusal), {}};
  return AclDeletion{std::nullopt, describe(filter)};
}

std::vector<AclDeletion> AclStore::remove_matching(const std::vector<AclBindingFilter>& filters,
                                                   std::size_t max_listed) {
  std::vector<AclDeletion> results;
  results.reserve(filters.size());
  std::size_t listed = 0;
  for (const AclBindingFilter& filter : filters) {
    AclDeletion result = matched_by(filter);
    if (result.deleted.size() > max_listed - listed) {
      result = AclDeletion{"The filters of one request match more than " +
                               std::to_string(max_listed) + " ACLs in all",
                           {},
                           true};
    }
    listed += result.deleted.size();
    results.push_back(std::move(result));
  }
  for (const AclDeletion& result : results) {
    for (const AclBinding& binding : result.deleted) erase(binding);
  }
  return results;
}

void AclStore::erase(const AclBinding& binding) {
  const auto found = bindings_.find(binding);
  if (found == bindings_.end()) return;  // a filter before this one deleted it
  index_.remove(*found);
  const std::size_t bytes = acl_stored_bytes(*found);
  stored_bytes_ -= bytes;
  bindings_.erase(found);
  memory_charge_.release(bytes);
}

}  // namespace kgroups::broker
