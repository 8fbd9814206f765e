// SPDX-License-Identifier: Apache-2.0
//
// ShareGroupRegistry: a Topic's share groups by name, each with the mutex that
// serializes calls on it. Groups are created on first share_join and never
// removed (their share-partitions outlive their members), so a reference stays
// valid for the registry's lifetime.
// Thread-safe: lookups share a reader lock; creating a group takes it
// exclusively. A group's state is guarded by its own mutex, which callers hold.
#pragma once

#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "group/group_name_map.h"
#include "share/share_group.h"

namespace kgroups::share {

struct LockedShareGroup {
  LockedShareGroup(int num_partitions, const ShareLimits& limits) : group(num_partitions, limits) {}

  std::mutex mutex;  // guards group
  ShareGroup group;
};

class ShareGroupRegistry {
 public:
  ShareGroupRegistry(int num_partitions, const ShareLimits& limits)
      : num_partitions_(num_partitions), limits_(limits) {}

  // The share group with this name, or nullptr if it never existed.
  [[nodiscard]] LockedShareGroup* find(std::string_view name) const;

  // The share group with this name, created (empty) if it never existed.
  LockedShareGroup& find_or_create(std::string_view name);

  // Every share group, in no particular order.
  [[nodiscard]] std::vector<LockedShareGroup*> all() const;

 private:
  int num_partitions_;
  ShareLimits limits_;
  mutable std::shared_mutex mutex_;  // guards groups_ (the map, not the groups)
  kgroups::GroupNameMap<LockedShareGroup> groups_;
};

}  // namespace kgroups::share
