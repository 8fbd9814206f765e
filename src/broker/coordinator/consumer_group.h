// SPDX-License-Identifier: Apache-2.0
//
// ConsumerGroup: the state of one consumer group (KIP-848): its epochs, members,
// static members by instance id, target assignment, the epoch at which each partition
// is owned, the metadata of the topics its members subscribe to, its committed
// offsets, and its members' timers. It keeps these indexes in step as members are
// put and removed; the rules (when to bump epochs, how to reconcile) live in
// ConsumerGroupCoordinator.
// Not thread-safe; owned by the ConsumerGroupCoordinator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "broker/coordinator/clock.h"
#include "broker/coordinator/consumer_assignment.h"
#include "broker/coordinator/consumer_group_member.h"
#include "broker/coordinator/offset_store.h"
#include "broker/coordinator/topic_catalog.h"

namespace kgroups::broker {

// The group states ConsumerGroupDescribe reports.
enum class ConsumerGroupState : std::uint8_t { kEmpty, kAssigning, kReconciling, kStable, kDead };

// Kafka's name of the state ("Reconciling").
std::string_view consumer_group_state_name(ConsumerGroupState state);

enum class MemberTimer : std::uint8_t { kSession, kRebalance };

// The bytes a member keeps beyond its assignment, the unit of
// ConsumerGroupConfig::max_stored_bytes: its strings and subscribed topic names at their size
// plus fixed overheads for the member struct, the map nodes that index it and allocation
// headers (64-bit libstdc++ and glibc malloc). Its partitions are not counted here: they are
// bounded by the cluster's partitions.
std::size_t consumer_member_bytes(const ConsumerGroupMember& member);

class ConsumerGroup {
 public:
  explicit ConsumerGroup(std::string group_id) : group_id_(std::move(group_id)) {}
  ConsumerGroup(const ConsumerGroup&) = delete;
  ConsumerGroup& operator=(const ConsumerGroup&) = delete;

  [[nodiscard]] const std::string& group_id() const { return group_id_; }

  // Bumped on every change of membership, subscriptions or subscribed topics' metadata.
  [[nodiscard]] std::int32_t group_epoch() const { return group_epoch_; }
  void set_group_epoch(std::int32_t epoch) { group_epoch_ = epoch; }
  // The group epoch the target assignment was computed for.
  [[nodiscard]] std::int32_t assignment_epoch() const { return assignment_epoch_; }

  // Empty without members; Assigning while the target is older than the group epoch;
  // Reconciling while a member is not reconciled to it; Stable otherwise. O(members).
  [[nodiscard]] ConsumerGroupState state() const;

  [[nodiscard]] const ConsumerGroupMember* find_member(std::string_view member_id) const;
  // Returns the static member holding the instance id, or nullptr.
  [[nodiscard]] const ConsumerGroupMember* static_member(std::string_view instance_id) const;
  [[nodiscard]] const std::map<std::string, ConsumerGroupMember, std::less<>>& members() const {
    return members_;
  }
  [[nodiscard]] std::size_t size() const { return members_.size(); }
  // The sum of consumer_member_bytes() over the members.
  [[nodiscard]] std::size_t member_bytes() const { return member_bytes_; }
  // What the group keeps, as ConsumerGroupConfig::max_stored_bytes counts it: member_bytes()
  // and its committed offsets (OffsetStore::stored_bytes). O(1).
  [[nodiscard]] std::size_t stored_bytes() const { return member_bytes_ + offsets_.stored_bytes(); }

  // Adds the member or replaces the one with its id, updating partition epochs,
  // the static-member index, subscription and assignor counts, and timers. Replacing
  // touches only the index entries whose keys changed: O(log) for the partitions that
  // changed hands or epoch, plus O(partitions of the member) to compare.
  void put_member(ConsumerGroupMember member);
  // Replaces what the member says of itself (its ids, subscription, assignor, rebalance
  // timeout and session deadline) by those of `details`, keeping its epochs, state,
  // partitions and rebalance deadline, whatever `details` holds there; adds `details` as
  // put_member() does if there is no such member. O(log) per index entry whose key
  // changed; nothing proportional to the member's partitions.
  void update_member_details(ConsumerGroupMember details);
  // Removes the member (and its target assignment and timers); false if absent.
  bool remove_member(std::string_view member_id);
  // Removes the static member `old_member_id` and puts `member` (same instance id) in
  // its place, handing it the old member's target assignment.
  void replace_member(std::string_view old_member_id, ConsumerGroupMember member);

  // Returns the epoch at which some member owns the partition (assigned or pending
  // revocation), or -1 if none does.
  [[nodiscard]] std::int32_t partition_epoch(const TopicId& topic, std::int32_t partition) const;

  // The target assignment of the member (empty if it has none).
  [[nodiscard]] const ConsumerAssignment& target_of(std::string_view member_id) const;
  // Replaces the whole target assignment, computed for `epoch`.
  void set_target_assignment(std::map<std::string, ConsumerAssignment, std::less<>> target,
                             std::int32_t epoch);
  // The members whose target the last set_target_assignment() gave or changed, in member-id
  // order (Kafka writes target-assignment records for those only).
  [[nodiscard]] const std::vector<std::string>& changed_targets() const { return changed_targets_; }

  // How many members subscribe to each topic name.
  [[nodiscard]] const std::map<std::string, int, std::less<>>& subscribed_topic_counts() const {
    return subscribed_topic_counts_;
  }
  // The subscribed topics that exist, by name, as last computed.
  [[nodiscard]] const std::map<std::string, TopicDescription, std::less<>>& subscription_metadata()
      const {
    return subscription_metadata_;
  }
  // Recomputes the subscription metadata from `catalog`; returns whether it changed.
  bool refresh_subscription_metadata(const TopicCatalog& catalog);
  // Returns whether the catalog changed since the metadata was last computed.
  [[nodiscard]] bool catalog_changed(const TopicCatalog& catalog) const {
    return catalog_version_ != catalog.version();
  }

  // The assignor most members ask for (ties: the first name), or `fallback`.
  [[nodiscard]] std::string preferred_assignor(std::string_view fallback) const;

  OffsetStore& offsets() { return offsets_; }
  [[nodiscard]] const OffsetStore& offsets() const { return offsets_; }

  // Returns the earliest member timer, or nullopt.
  [[nodiscard]] std::optional<Clock::TimePoint> next_deadline() const;
  // Returns the member timers due at `at`, earliest first.
  [[nodiscard]] std::vector<std::pair<std::string, MemberTimer>> due_timers(
      Clock::TimePoint at) const;

 private:
  void index_member(const ConsumerGroupMember& member, int sign);
  void index_member_details(const ConsumerGroupMember& member, int sign);
  void reindex_member_details(const ConsumerGroupMember& before, const ConsumerGroupMember& after);
  void move_timer(const std::string& member_id, MemberTimer kind,
                  const std::optional<Clock::TimePoint>& before,
                  const std::optional<Clock::TimePoint>& after);
  void set_partition_epochs(const ConsumerAssignment& partitions, std::int32_t epoch, bool add);
  void reindex_partition_epochs(const ConsumerGroupMember& before,
                                const ConsumerGroupMember& after);

  std::string group_id_;
  std::size_t member_bytes_ = 0;
  std::int32_t group_epoch_ = 0;
  std::int32_t assignment_epoch_ = 0;
  std::map<std::string, ConsumerGroupMember, std::less<>> members_;  // by member id
  std::map<std::string, std::string, std::less<>> static_members_;   // instance id -> member id
  std::map<std::string, ConsumerAssignment, std::less<>> target_;    // by member id
  std::vector<std::string> changed_targets_;                         // see changed_targets()
  std::map<TopicId, std::map<std::int32_t, std::int32_t>> partition_epochs_;  // owners' epochs
  std::map<std::string, int, std::less<>> subscribed_topic_counts_;
  std::map<std::string, int, std::less<>> assignor_counts_;
  std::map<std::string, TopicDescription, std::less<>> subscription_metadata_;
  std::optional<std::uint64_t> catalog_version_;  // as of the last refresh
  OffsetStore offsets_;
  std::set<std::tuple<Clock::TimePoint, std::string, MemberTimer>> timers_;  // all members'
};

}  // namespace kgroups::broker
