// SPDX-License-Identifier: Apache-2.0
#include "group/group_registry.h"

namespace kgroups {

Group* GroupRegistry::find(std::string_view name) const {
  const std::shared_lock lock(mutex_);
  const auto found = groups_.find(name);
  return found == groups_.end() ? nullptr : found->second.get();
}

Group& GroupRegistry::find_or_create(std::string_view name) {
  if (Group* group = find(name)) return *group;
  const std::unique_lock lock(mutex_);
  auto [entry, created] = groups_.try_emplace(std::string(name), nullptr);
  if (created) {
    try {
      entry->second = std::make_unique<Group>(num_partitions_, policy_);
    } catch (...) {
      groups_.erase(entry);
      throw;
    }
  }
  return *entry->second;
}

}  // namespace kgroups
