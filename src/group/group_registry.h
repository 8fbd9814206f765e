// SPDX-License-Identifier: Apache-2.0
//
// GroupRegistry: a Topic's consumer groups by name, each with the mutex that
// serializes calls on it. Groups are created on first join and never removed
// (their committed offsets outlive their members), so a Group reference stays
// valid for the registry's lifetime.
// Thread-safe: lookups share a reader lock; creating a group takes it
// exclusively. A Group's state is guarded by its own mutex, which callers hold.
#pragma once

#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>

#include "group/group_name_map.h"
#include "group/group_policy.h"
#include "group/group_state.h"

namespace kgroups {

struct Group {
  Group(int num_partitions, GroupPolicy policy) : state(num_partitions, policy) {}

  std::mutex mutex;  // guards state
  GroupState state;
};

class GroupRegistry {
 public:
  // What `policy` references must outlive the registry.
  GroupRegistry(int num_partitions, GroupPolicy policy)
      : num_partitions_(num_partitions), policy_(policy) {}

  // The group with this name, or nullptr if it never existed.
  [[nodiscard]] Group* find(std::string_view name) const;

  // The group with this name, created (empty) if it never existed.
  Group& find_or_create(std::string_view name);

 private:
  int num_partitions_;
  GroupPolicy policy_;
  mutable std::shared_mutex mutex_;  // guards groups_ (the map, not the groups)
  GroupNameMap<Group> groups_;
};

}  // namespace kgroups
