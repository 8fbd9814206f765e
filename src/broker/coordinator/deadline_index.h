// SPDX-License-Identifier: Apache-2.0
//
// DeadlineIndex: the groups that have a deadline, ordered by it, so the coordinator
// finds the due groups and the earliest deadline without visiting every group. Each
// group is filed at most once, under the deadline its last update() gave; the
// coordinator updates the groups a call touched when the call ends. Lookups cost
// O(log groups); due_at() costs that plus one step per due group.
// Not thread-safe; owned by the GroupCoordinator.
#pragma once

#include <cstddef>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "broker/coordinator/clock.h"

namespace kgroups::broker {

class DeadlineIndex {
 public:
  // Files the group under `deadline`, replacing its previous one; nullopt removes it.
  // The index keeps the view, not a copy: the id's characters must stay alive and
  // unchanged until the group is removed (the ClassicGroup's own id does).
  void update(std::string_view group_id, std::optional<Clock::TimePoint> deadline);

  // Removes the group if filed.
  void remove(std::string_view group_id) { update(group_id, std::nullopt); }

  // Returns the earliest deadline of any group, or nullopt when none has one.
  [[nodiscard]] std::optional<Clock::TimePoint> earliest() const;

  // Returns the groups whose deadline is at or before `at`, earliest first, ties in
  // group id order. The views are those given to update().
  [[nodiscard]] std::vector<std::string_view> due_at(Clock::TimePoint at) const;

  // Returns the group's deadline, or nullopt if it is not filed.
  [[nodiscard]] std::optional<Clock::TimePoint> deadline_of(std::string_view group_id) const;

  [[nodiscard]] std::size_t size() const { return deadline_of_.size(); }
  void clear();

 private:
  std::set<std::pair<Clock::TimePoint, std::string_view>> by_deadline_;  // one per filed group
  std::unordered_map<std::string_view, Clock::TimePoint> deadline_of_;   // same groups, by id
};

}  // namespace kgroups::broker
