// SPDX-License-Identifier: Apache-2.0
#include "broker/groups/group_record_writer.h"

#include <algorithm>
#include <map>
#include <utility>

#include "broker/runtime/logger.h"
#include "protocol/coordinator_records/consumer_group_record_values.h"
#include "protocol/coordinator_records/coordinator_record_key.h"
#include "protocol/coordinator_records/group_metadata_value.h"
#include "protocol/coordinator_records/offset_commit_value.h"

namespace kgroups::broker {
namespace {

using protocol::CoordinatorRecordKey;
using protocol::CoordinatorRecordType;

CoordinatorTopicRecord tombstone(const CoordinatorRecordKey& key) {
  return {key.encode(), std::nullopt};
}

CoordinatorTopicRecord record(const CoordinatorRecordKey& key, std::vector<std::uint8_t> value) {
  return {key.encode(), std::move(value)};
}

// A classic group's metadata as Kafka stores it after a rebalance: the members with their
// metadata for the selected protocol and their assignment; an Empty group has none.
protocol::GroupMetadataValue classic_group_value(const ClassicGroup& group, std::int64_t now_ms) {
  protocol::GroupMetadataValue value;
  value.protocol_type = group.protocol_type();
  value.generation = group.generation_id();
  value.current_state_timestamp_ms = now_ms;
  if (group.members().empty()) return value;
  value.protocol = group.protocol_name();
  value.leader = group.leader_id();
  for (const auto& [member_id, member] : group.members()) {
    protocol::GroupMetadataMember& stored = value.members.emplace_back();
    stored.member_id = member_id;
    stored.group_instance_id = member.group_instance_id;
    stored.client_id = member.client_id;
    stored.client_host = member.client_host;
    stored.rebalance_timeout_ms = member.rebalance_timeout_ms;
    stored.session_timeout_ms = member.session_timeout_ms;
    if (const std::vector<std::uint8_t>* metadata = member.metadata_for(group.protocol_name())) {
      stored.subscription = *metadata;
    }
    stored.assignment = member.assignment;
  }
  return value;
}

std::vector<protocol::ConsumerGroupRecordPartitions> record_partitions(
    const ConsumerAssignment& assignment) {
  std::vector<protocol::ConsumerGroupRecordPartitions> topics;
  for (const TopicPartitions& topic : to_topic_partitions(assignment)) {
    topics.push_back({.topic_id = topic.topic_id, .partitions = topic.partitions});
  }
  return topics;
}

protocol::ConsumerGroupMemberMetadataValue member_value(const ConsumerGroupMember& member) {
  protocol::ConsumerGroupMemberMetadataValue value;
  value.instance_id = member.instance_id;
  value.rack_id = member.rack_id;
  value.client_id = member.client_id;
  value.client_host = member.client_host;
  value.subscribed_topic_names = member.subscribed_topic_names;
  value.rebalance_timeout_ms = member.rebalance_timeout_ms;
  value.server_assignor = member.server_assignor;
  return value;
}

protocol::ConsumerGroupCurrentMemberAssignmentValue current_assignment_value(
    const ConsumerGroupMember& member) {
  protocol::ConsumerGroupCurrentMemberAssignmentValue value;
  value.member_epoch = member.member_epoch;
  value.previous_member_epoch = member.previous_member_epoch;
  value.state = static_cast<std::int8_t>(member.state);  // Kafka's MemberState values
  value.assigned_partitions = record_partitions(member.assigned_partitions);
  value.partitions_pending_revocation = record_partitions(member.partitions_pending_revocation);
  return value;
}

}  // namespace

void GroupRecordWriter::note(Change change, std::string_view group_id, std::string_view member_id,
                             PartitionOffset offset) {
  if (topic_ == nullptr) return;
  notes_.push_back(Note{.change = change,
                        .group_id = std::string(group_id),
                        .member_id = std::string(member_id),
                        .offset = std::move(offset)});
}

void GroupRecordWriter::on_member_joined(GroupType type, std::string_view group_id,
                                         const ObservedMember& member) {
  if (type == GroupType::kConsumer) note(Change::kConsumerMemberStored, group_id, member.member_id);
}

void GroupRecordWriter::on_member_updated(GroupType type, std::string_view group_id,
                                          std::string_view member_id, MemberUpdate update) {
  if (type != GroupType::kConsumer) return;
  note(update == MemberUpdate::kDetails ? Change::kConsumerMemberStored
                                        : Change::kConsumerMemberAssignmentStored,
       group_id, member_id);
}

void GroupRecordWriter::on_member_left(GroupType type, std::string_view group_id,
                                       const ObservedMember& member, std::string_view /*reason*/) {
  if (type == GroupType::kConsumer) {
    note(Change::kConsumerMemberRemoved, group_id, member.member_id);
  }
}

void GroupRecordWriter::on_member_expired(GroupType type, std::string_view group_id,
                                          const ObservedMember& member,
                                          std::string_view /*reason*/) {
  if (type == GroupType::kConsumer) {
    note(Change::kConsumerMemberRemoved, group_id, member.member_id);
  }
}

void GroupRecordWriter::on_rebalance_completed(const ObservedRebalance& rebalance) {
  note(rebalance.type == GroupType::kClassic ? Change::kClassicGroupStored
                                             : Change::kConsumerGroupAssigned,
       rebalance.group_id);
}

void GroupRecordWriter::on_offsets_committed(GroupType /*type*/, std::string_view group_id,
                                             std::string_view /*member_id*/,
                                             std::span<const PartitionOffset> offsets) {
  for (const PartitionOffset& offset : offsets) {
    note(Change::kOffsetCommitted, group_id, {}, offset);
  }
}

void GroupRecordWriter::on_group_deleted(GroupType type, std::string_view group_id) {
  note(type == GroupType::kClassic ? Change::kClassicGroupRemoved : Change::kConsumerGroupRemoved,
       group_id);
}

void GroupRecordWriter::on_group_forgotten(GroupType type, std::string_view group_id) {
  const Change change =
      type == GroupType::kClassic ? Change::kClassicGroupRemoved : Change::kConsumerGroupRemoved;
  // A deleted group is then forgotten: one set of tombstones is enough.
  if (!notes_.empty() && notes_.back().change == change && notes_.back().group_id == group_id) {
    return;
  }
  note(change, group_id);
}

void GroupRecordWriter::note_offsets_deleted(std::string_view group_id,
                                             std::span<const TopicPartition> partitions) {
  for (const TopicPartition& partition : partitions) {
    note(Change::kOffsetDeleted, group_id, {}, PartitionOffset{partition, {}});
  }
}

void GroupRecordWriter::discard(std::size_t first, std::size_t count) {
  if (first >= notes_.size()) return;
  const std::size_t last = std::min(notes_.size(), first + count);
  notes_.erase(notes_.begin() + static_cast<std::ptrdiff_t>(first),
               notes_.begin() + static_cast<std::ptrdiff_t>(last));
}

void GroupRecordWriter::encode(const Note& note, const GroupCoordinator& classic,
                               const ConsumerGroupCoordinator& consumer, std::int64_t now_ms,
                               std::vector<CoordinatorTopicRecord>& out) const {
  const std::string& group_id = note.group_id;
  const auto group_key = [&group_id](CoordinatorRecordType type) {
    return CoordinatorRecordKey::group(type, group_id);
  };
  const auto member_key = [&group_id, &note](CoordinatorRecordType type) {
    return CoordinatorRecordKey::member(type, group_id, note.member_id);
  };
  switch (note.change) {
    case Change::kOffsetCommitted: {
      const CommittedOffset& committed = note.offset.committed;
      protocol::OffsetCommitValue value;
      value.offset = committed.offset;
      value.leader_epoch = committed.leader_epoch;
      value.metadata = committed.metadata;
      value.commit_timestamp_ms =
          committed.commit_timestamp_ms >= 0 ? committed.commit_timestamp_ms : now_ms;
      out.push_back(
          record(CoordinatorRecordKey::offset_commit(group_id, note.offset.topic_partition.topic,
                                                     note.offset.topic_partition.partition),
                 value.encode()));
      return;
    }
    case Change::kOffsetDeleted:
      out.push_back(tombstone(CoordinatorRecordKey::offset_commit(
          group_id, note.offset.topic_partition.topic, note.offset.topic_partition.partition)));
      return;
    case Change::kClassicGroupStored:
      if (const ClassicGroup* group = classic.group(group_id); group != nullptr) {
        out.push_back(record(group_key(CoordinatorRecordType::kGroupMetadata),
                             classic_group_value(*group, now_ms).encode()));
      }
      return;
    case Change::kClassicGroupRemoved:
      out.push_back(tombstone(group_key(CoordinatorRecordType::kGroupMetadata)));
      return;
    case Change::kConsumerGroupAssigned: {
      const ConsumerGroup* group = consumer.group(group_id);
      if (group == nullptr) return;
      out.push_back(
          record(group_key(CoordinatorRecordType::kConsumerGroupMetadata),
                 protocol::ConsumerGroupMetadataValue{.epoch = group->group_epoch()}.encode()));
      // As Kafka's target assignment builder, only the members whose target changed.
      for (const std::string& member_id : group->changed_targets()) {
        protocol::ConsumerGroupTargetAssignmentMemberValue target;
        target.topic_partitions = record_partitions(group->target_of(member_id));
        out.push_back(record(
            CoordinatorRecordKey::member(
                CoordinatorRecordType::kConsumerGroupTargetAssignmentMember, group_id, member_id),
            target.encode()));
      }
      out.push_back(record(group_key(CoordinatorRecordType::kConsumerGroupTargetAssignmentMetadata),
                           protocol::ConsumerGroupTargetAssignmentMetadataValue{
                               .assignment_epoch = group->assignment_epoch()}
                               .encode()));
      return;
    }
    case Change::kConsumerGroupRemoved:
      out.push_back(
          tombstone(group_key(CoordinatorRecordType::kConsumerGroupTargetAssignmentMetadata)));
      out.push_back(tombstone(group_key(CoordinatorRecordType::kConsumerGroupMetadata)));
      return;
    case Change::kConsumerMemberStored: {
      const ConsumerGroup* group = consumer.group(group_id);
      const ConsumerGroupMember* member =
          group == nullptr ? nullptr : group->find_member(note.member_id);
      if (member == nullptr) return;
      out.push_back(record(member_key(CoordinatorRecordType::kConsumerGroupMemberMetadata),
                           member_value(*member).encode()));
      return;
    }
    case Change::kConsumerMemberAssignmentStored: {
      const ConsumerGroup* group = consumer.group(group_id);
      const ConsumerGroupMember* member =
          group == nullptr ? nullptr : group->find_member(note.member_id);
      if (member == nullptr) return;
      out.push_back(record(member_key(CoordinatorRecordType::kConsumerGroupCurrentMemberAssignment),
                           current_assignment_value(*member).encode()));
      return;
    }
    case Change::kConsumerMemberRemoved:
      out.push_back(
          tombstone(member_key(CoordinatorRecordType::kConsumerGroupCurrentMemberAssignment)));
      out.push_back(
          tombstone(member_key(CoordinatorRecordType::kConsumerGroupTargetAssignmentMember)));
      out.push_back(tombstone(member_key(CoordinatorRecordType::kConsumerGroupMemberMetadata)));
      return;
  }
}

void GroupRecordWriter::flush(const GroupCoordinator& classic,
                              const ConsumerGroupCoordinator& consumer, std::int64_t now_ms) {
  if (notes_.empty()) return;
  std::vector<Note> notes = std::move(notes_);
  notes_.clear();
  if (topic_ == nullptr) return;
  // One batch per partition, each in the order things happened.
  std::map<std::int32_t, std::vector<CoordinatorTopicRecord>> batches;
  for (const Note& note : notes) {
    encode(note, classic, consumer, now_ms, batches[topic_->partition_for(note.group_id)]);
  }
  for (const auto& [partition, records] : batches) {
    const protocol::ErrorCode error = topic_->append(partition, records, now_ms);
    if (error != protocol::ErrorCode::kNone) {
      log_warn("could not write " + std::to_string(records.size()) + " group records to " +
               std::string(kOffsetsTopicName) + "-" + std::to_string(partition) + " (" +
               std::string(protocol::error_name(error)) +
               "); the groups are still served from memory");
    }
  }
}

}  // namespace kgroups::broker
