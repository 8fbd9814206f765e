// SPDX-License-Identifier: Apache-2.0
//
// GroupTable<Group>: the bookkeeping both group coordinators share, so each keeps only its
// protocol. It holds the groups by id, the groups the current call may change ("touched"),
// the deadline index of every group with a timer, and the bytes the groups keep, the total
// a coordinator's max_stored_bytes bounds.
//
// A call looks a group up with find_to_change() (or creates one), changes it, and ends with
// settle(): each touched group's bytes are counted afresh and its deadline refiled. A
// group's bytes are counted where they are kept, so the total stays exact however the call
// changed it; stored_bytes() includes what touched groups have grown by during the call.
// `Group` provides group_id() (a string that lives as long as the group), stored_bytes()
// and next_deadline() (std::optional<Clock::TimePoint>).
// Costs: lookups and touch O(1) on average; settle O(touched groups x log groups).
// Not thread-safe; owned by its coordinator.
#pragma once

#include <cstddef>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "broker/coordinator/clock.h"
#include "broker/coordinator/deadline_index.h"
#include "broker/coordinator/string_hash.h"

namespace kgroups::broker {

template <class Group>
class GroupTable {
 public:
  // Returns the group for reading, or nullptr.
  [[nodiscard]] const Group* find(std::string_view group_id) const {
    auto found = entries_.find(group_id);
    return found == entries_.end() ? nullptr : found->second.group.get();
  }

  // Returns the group for a change, or nullptr; the group is touched.
  Group* find_to_change(std::string_view group_id) {
    auto found = entries_.find(group_id);
    if (found == entries_.end()) return nullptr;
    touch(found->second);
    return found->second.group.get();
  }

  // Creates the group (which must not exist) as Group(group_id, arguments...), touched and
  // with none of its bytes counted yet.
  template <class... Arguments>
  Group& create(std::string_view group_id, Arguments&&... arguments) {
    auto [position, inserted] = entries_.emplace(
        std::string(group_id),
        Entry{std::make_unique<Group>(std::string(group_id), std::forward<Arguments>(arguments)...),
              0, kUntouched});
    touch(position->second);
    return *position->second.group;
  }

  // Forgets the group (nothing if there is none): its bytes leave the total, its deadline
  // the index. References to it dangle from here on.
  void erase(std::string_view group_id) {
    auto found = entries_.find(group_id);
    if (found == entries_.end()) return;
    Entry& entry = found->second;
    stored_bytes_ -= entry.counted_bytes;
    if (entry.touched_at != kUntouched) touched_[entry.touched_at] = nullptr;
    deadlines_.remove(entry.group->group_id());
    entries_.erase(found);
  }

  // Counts each touched group's bytes afresh and refiles it under its next deadline. A
  // touched group for which `forget(group)` returns true is erased instead.
  template <class Forget>
  void settle(Forget&& forget) {
    // `forget` may not touch groups; erase() while settling only nulls entries of touched_.
    for (std::size_t i = 0; i < touched_.size(); ++i) {
      Entry* entry = touched_[i];
      if (entry == nullptr) continue;
      entry->touched_at = kUntouched;
      Group& group = *entry->group;
      if (forget(group)) {
        touched_[i] = nullptr;
        erase(group.group_id());
        continue;
      }
      const std::size_t bytes = group.stored_bytes();
      stored_bytes_ = stored_bytes_ - entry->counted_bytes + bytes;
      entry->counted_bytes = bytes;
      deadlines_.update(group.group_id(), group.next_deadline());
    }
    touched_.clear();
  }
  void settle() {
    settle([](const Group&) { return false; });
  }

  // Returns the bytes every group keeps, touched groups as they are now.
  [[nodiscard]] std::size_t stored_bytes() const {
    std::size_t bytes = stored_bytes_;
    for (const Entry* entry : touched_) {
      if (entry != nullptr) bytes = bytes - entry->counted_bytes + entry->group->stored_bytes();
    }
    return bytes;
  }

  [[nodiscard]] std::size_t size() const { return entries_.size(); }

  // The earliest deadline of any group as of its last settle, or nullopt. O(1).
  [[nodiscard]] std::optional<Clock::TimePoint> next_deadline() const {
    return deadlines_.earliest();
  }

  // The ids of the groups whose deadline is at or before `at`, earliest first. The views are
  // the groups' own ids.
  [[nodiscard]] std::vector<std::string_view> due_at(Clock::TimePoint at) const {
    return deadlines_.due_at(at);
  }

  // Calls visit(const Group&) for every group, in no particular order.
  template <class Visit>
  void for_each(Visit&& visit) const {
    for (const auto& [group_id, entry] : entries_) visit(*entry.group);
  }

  // Calls visit(Group&) for every group; touches each for which it returns true (it changed
  // the group). A group's bytes are counted when it is settled, so touching after the change
  // counts it as well as touching before.
  template <class Visit>
  void for_each_to_change(Visit&& visit) {
    for (auto& [group_id, entry] : entries_) {
      if (visit(*entry.group)) touch(entry);
    }
  }

  // Forgets every group.
  void clear() {
    touched_.clear();
    deadlines_.clear();
    entries_.clear();
    stored_bytes_ = 0;
  }

 private:
  static constexpr std::size_t kUntouched = std::numeric_limits<std::size_t>::max();

  struct Entry {
    std::unique_ptr<Group> group;
    std::size_t counted_bytes;  // the group's bytes in stored_bytes_, as of its last settle
    std::size_t touched_at;     // its index in touched_, or kUntouched
  };

  void touch(Entry& entry) {
    if (entry.touched_at != kUntouched) return;
    entry.touched_at = touched_.size();
    touched_.push_back(&entry);
  }

  std::unordered_map<std::string, Entry, StringHash, std::equal_to<>> entries_;
  std::vector<Entry*> touched_;   // nullptr where a touched group was erased
  DeadlineIndex deadlines_;       // every group with a deadline, as of its last settle
  std::size_t stored_bytes_ = 0;  // the counted_bytes of every entry
};

}  // namespace kgroups::broker
