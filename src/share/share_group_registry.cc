// SPDX-License-Identifier: Apache-2.0
#include "share/share_group_registry.h"

namespace kgroups::share {

LockedShareGroup* ShareGroupRegistry::find(std::string_view name) const {
  const std::shared_lock lock(mutex_);
  const auto found = groups_.find(name);
  return found == groups_.end() ? nullptr : found->second.get();
}

LockedShareGroup& ShareGroupRegistry::find_or_create(std::string_view name) {
  const std::unique_lock lock(mutex_);
  const auto found = groups_.find(name);
  if (found != groups_.end()) return *found->second;
  auto group = std::make_unique<LockedShareGroup>(num_partitions_, limits_);
  return *groups_.emplace(std::string(name), std::move(group)).first->second;
}

std::vector<LockedShareGroup*> ShareGroupRegistry::all() const {
  const std::shared_lock lock(mutex_);
  std::vector<LockedShareGroup*> groups;
  groups.reserve(groups_.size());
  for (const auto& entry : groups_) groups.push_back(entry.second.get());
  return groups;
}

}  // namespace kgroups::share
