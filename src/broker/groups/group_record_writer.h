// SPDX-License-Identifier: Apache-2.0
//
// GroupRecordWriter: writes what the group coordinators do to __consumer_offsets as Kafka's
// records, so the log holds the durable copy of the groups the coordinators serve from
// memory. As a GroupObserver it notes, during a coordinator call, what changed: offsets
// committed (one OffsetCommit record each), a classic group's completed rebalance (its
// GroupMetadata, members and assignments as they stand when written; an Empty group with
// none), a consumer group's new target assignment (ConsumerGroupMetadata, the
// TargetAssignment records), a consumer member joining or changing what it says of itself
// (ConsumerGroupMemberMetadata), moving in its reconciliation
// (ConsumerGroupCurrentMemberAssignment) or leaving (its tombstones), a group deleted or
// dropped (tombstones of its metadata records).
// CoordinatorService adds the tombstones of offsets deleted (OffsetDelete, a deleted topic, a
// deleted group) and calls flush() when each call ends, which encodes the notes in order and
// appends them, one batch per __consumer_offsets partition. Without a topic
// (set_topic(nullptr), the default) nothing is noted.
// Lifetimes: the topic must outlive the writer or be replaced first. Not thread-safe: lives
// on the broker's thread with the coordinators.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "broker/coordinator/consumer_group_coordinator.h"
#include "broker/coordinator/group_coordinator.h"
#include "broker/coordinator/group_observer.h"
#include "broker/groups/coordinator_topic.h"

namespace kgroups::broker {

class GroupRecordWriter final : public GroupObserver {
 public:
  // Where records go; nullptr: nowhere (nothing is noted).
  void set_topic(CoordinatorTopic* topic) { topic_ = topic; }
  [[nodiscard]] CoordinatorTopic* topic() const { return topic_; }

  void on_member_joined(GroupType type, std::string_view group_id,
                        const ObservedMember& member) override;
  void on_member_updated(GroupType type, std::string_view group_id, std::string_view member_id,
                         MemberUpdate update) override;
  void on_member_left(GroupType type, std::string_view group_id, const ObservedMember& member,
                      std::string_view reason) override;
  void on_member_expired(GroupType type, std::string_view group_id, const ObservedMember& member,
                         std::string_view reason) override;
  void on_rebalance_completed(const ObservedRebalance& rebalance) override;
  void on_offsets_committed(GroupType type, std::string_view group_id, std::string_view member_id,
                            std::span<const PartitionOffset> offsets) override;
  void on_group_deleted(GroupType type, std::string_view group_id) override;
  void on_group_forgotten(GroupType type, std::string_view group_id) override;

  // Notes tombstones for `partitions`' committed offsets of `group_id`.
  void note_offsets_deleted(std::string_view group_id, std::span<const TopicPartition> partitions);

  // Encodes what was noted, reading the groups' state from the coordinators now, and appends
  // it stamped `now_ms` (wall clock); forgets the notes. An append that fails is logged (the
  // coordinators keep serving from memory).
  void flush(const GroupCoordinator& classic, const ConsumerGroupCoordinator& consumer,
             std::int64_t now_ms);

  // Notes waiting for flush(); discard(first, count) drops `count` of them from the
  // `first`-th on (notes taken ahead of a call that then failed).
  [[nodiscard]] std::size_t pending() const { return notes_.size(); }
  void discard(std::size_t first, std::size_t count);

 private:
  enum class Change : std::uint8_t {
    kOffsetCommitted,
    kOffsetDeleted,
    kClassicGroupStored,
    kClassicGroupRemoved,
    kConsumerGroupAssigned,
    kConsumerGroupRemoved,
    kConsumerMemberStored,
    kConsumerMemberAssignmentStored,
    kConsumerMemberRemoved,
  };
  struct Note {
    Change change;
    std::string group_id;
    std::string member_id;   // consumer member changes
    PartitionOffset offset;  // offset changes
  };

  void note(Change change, std::string_view group_id, std::string_view member_id = {},
            PartitionOffset offset = {});
  // Appends the records `note` stands for to `out`.
  void encode(const Note& note, const GroupCoordinator& classic,
              const ConsumerGroupCoordinator& consumer, std::int64_t now_ms,
              std::vector<CoordinatorTopicRecord>& out) const;

  CoordinatorTopic* topic_ = nullptr;
  std::vector<Note> notes_;
};

}  // namespace kgroups::broker
