// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/deadline_index.h"

namespace kgroups::broker {

void DeadlineIndex::update(std::string_view group_id, std::optional<Clock::TimePoint> deadline) {
  auto filed = deadline_of_.find(group_id);
  if (filed != deadline_of_.end()) {
    if (deadline == filed->second) return;
    by_deadline_.erase({filed->second, filed->first});
    if (!deadline) {
      deadline_of_.erase(filed);
      return;
    }
    filed->second = *deadline;
    by_deadline_.emplace(*deadline, filed->first);
    return;
  }
  if (!deadline) return;
  deadline_of_.emplace(group_id, *deadline);
  by_deadline_.emplace(*deadline, group_id);
}

std::optional<Clock::TimePoint> DeadlineIndex::earliest() const {
  if (by_deadline_.empty()) return std::nullopt;
  return by_deadline_.begin()->first;
}

std::vector<std::string_view> DeadlineIndex::due_at(Clock::TimePoint at) const {
  std::vector<std::string_view> due;
  for (auto entry = by_deadline_.begin(); entry != by_deadline_.end() && entry->first <= at;
       ++entry) {
    due.push_back(entry->second);
  }
  return due;
}

std::optional<Clock::TimePoint> DeadlineIndex::deadline_of(std::string_view group_id) const {
  auto filed = deadline_of_.find(group_id);
  if (filed == deadline_of_.end()) return std::nullopt;
  return filed->second;
}

void DeadlineIndex::clear() {
  by_deadline_.clear();
  deadline_of_.clear();
}

}  // namespace kgroups::broker
