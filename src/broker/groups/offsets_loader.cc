// SPDX-License-Identifier: Apache-2.0
#include "broker/groups/offsets_loader.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "broker/groups/coordinator_log_replay.h"
#include "broker/runtime/logger.h"
#include "protocol/batch_records.h"
#include "protocol/coordinator_records/consumer_group_record_values.h"
#include "protocol/coordinator_records/coordinator_record_key.h"
#include "protocol/coordinator_records/group_metadata_value.h"
#include "protocol/coordinator_records/offset_commit_value.h"

namespace kgroups::broker {
namespace {

using protocol::CoordinatorRecordKey;
using protocol::CoordinatorRecordType;

// What the log says, group by group, once replayed.
struct LoadedGroups {
  std::map<std::string, std::map<TopicPartition, CommittedOffset>, std::less<>> offsets;
  // The classic groups' latest GroupMetadata records (a tombstone erases its group's).
  std::map<std::string, protocol::GroupMetadataValue, std::less<>> classic;
  // The consumer groups' records, each kind's latest (a tombstone erases it).
  struct ConsumerRecords {
    std::optional<std::int32_t> epoch;             // ConsumerGroupMetadata
    std::optional<std::int32_t> assignment_epoch;  // ConsumerGroupTargetAssignmentMetadata
    std::map<std::string, protocol::ConsumerGroupMemberMetadataValue, std::less<>> members;
    std::map<std::string, protocol::ConsumerGroupCurrentMemberAssignmentValue, std::less<>> current;
    std::map<std::string, ConsumerAssignment, std::less<>> target;
  };
  std::map<std::string, ConsumerRecords, std::less<>> consumer;
};

ConsumerAssignment assignment_of(
    const std::vector<protocol::ConsumerGroupRecordPartitions>& partitions) {
  std::vector<TopicPartitions> lists;
  lists.reserve(partitions.size());
  for (const protocol::ConsumerGroupRecordPartitions& topic : partitions) {
    lists.push_back({.topic_id = topic.topic_id, .partitions = topic.partitions});
  }
  return from_topic_partitions(lists);
}

// Sets or (a tombstone: no value) erases `key` in `map` from the record's value.
template <class Value, class Map>
bool replay_value(const protocol::BatchRecord& record, Map& map, const std::string& key) {
  if (!record.value) {
    map.erase(key);
    return true;
  }
  auto value = Value::decode(*record.value);
  if (!value) return false;
  map.insert_or_assign(key, std::move(*value));
  return true;
}

// Applies one consumer-group (KIP-848) record.
bool replay_consumer(const protocol::CoordinatorRecordKey& key, const protocol::BatchRecord& record,
                     LoadedGroups& loaded) {
  LoadedGroups::ConsumerRecords& group = loaded.consumer[key.group_id];
  switch (key.type) {
    case CoordinatorRecordType::kConsumerGroupMetadata: {
      if (!record.value) {
        group.epoch.reset();
        return true;
      }
      const auto value = protocol::ConsumerGroupMetadataValue::decode(*record.value);
      if (!value) return false;
      group.epoch = value->epoch;
      return true;
    }
    case CoordinatorRecordType::kConsumerGroupTargetAssignmentMetadata: {
      if (!record.value) {
        group.assignment_epoch.reset();
        return true;
      }
      const auto value =
          protocol::ConsumerGroupTargetAssignmentMetadataValue::decode(*record.value);
      if (!value) return false;
      group.assignment_epoch = value->assignment_epoch;
      return true;
    }
    case CoordinatorRecordType::kConsumerGroupMemberMetadata:
      return replay_value<protocol::ConsumerGroupMemberMetadataValue>(record, group.members,
                                                                      key.member_id);
    case CoordinatorRecordType::kConsumerGroupCurrentMemberAssignment:
      return replay_value<protocol::ConsumerGroupCurrentMemberAssignmentValue>(
          record, group.current, key.member_id);
    case CoordinatorRecordType::kConsumerGroupTargetAssignmentMember: {
      if (!record.value) {
        group.target.erase(key.member_id);
        return true;
      }
      const auto value = protocol::ConsumerGroupTargetAssignmentMemberValue::decode(*record.value);
      if (!value) return false;
      group.target.insert_or_assign(key.member_id, assignment_of(value->topic_partitions));
      return true;
    }
    default:
      return true;  // partition metadata: the load reads the catalog instead
  }
}

// The consumer group the records describe, or nullopt if they hold no live group (its
// metadata record was deleted, or it has no members: its offsets come back alone). A member
// without a metadata record is left out.
std::optional<LoadedConsumerGroup> loaded_consumer_group(const std::string& group_id,
                                                         LoadedGroups::ConsumerRecords& records) {
  if (!records.epoch || records.members.empty()) return std::nullopt;
  LoadedConsumerGroup group;
  group.group_id = group_id;
  group.group_epoch = *records.epoch;
  group.assignment_epoch = records.assignment_epoch.value_or(0);
  for (auto& [member_id, stored] : records.members) {
    ConsumerGroupMember& member = group.members.emplace_back();
    member.member_id = member_id;
    member.instance_id = std::move(stored.instance_id);
    member.rack_id = std::move(stored.rack_id);
    member.client_id = std::move(stored.client_id);
    member.client_host = std::move(stored.client_host);
    member.subscribed_topic_names = std::move(stored.subscribed_topic_names);
    member.rebalance_timeout_ms = stored.rebalance_timeout_ms;
    member.server_assignor = std::move(stored.server_assignor);
    const auto current = records.current.find(member_id);
    if (current == records.current.end()) continue;  // joined, never reconciled: epoch 0
    member.member_epoch = current->second.member_epoch;
    member.previous_member_epoch = current->second.previous_member_epoch;
    member.state = current->second.state >= 0 && current->second.state <= 2
                       ? static_cast<MemberState>(current->second.state)
                       : MemberState::kStable;
    member.assigned_partitions = assignment_of(current->second.assigned_partitions);
    member.partitions_pending_revocation =
        assignment_of(current->second.partitions_pending_revocation);
  }
  for (auto& [member_id, target] : records.target) {
    if (records.members.contains(member_id)) group.target.emplace(member_id, std::move(target));
  }
  return group;
}

// The classic group `value` describes, as GroupCoordinator::load_group takes it.
LoadedClassicGroup loaded_classic_group(std::string group_id, protocol::GroupMetadataValue value) {
  LoadedClassicGroup group;
  group.group_id = std::move(group_id);
  group.generation_id = value.generation;
  group.protocol_type = std::move(value.protocol_type);
  group.protocol_name = value.protocol.value_or("");
  group.leader_id = value.leader.value_or("");
  group.members.reserve(value.members.size());
  for (protocol::GroupMetadataMember& stored : value.members) {
    GroupMember& member = group.members.emplace_back();
    member.member_id = std::move(stored.member_id);
    member.group_instance_id = std::move(stored.group_instance_id);
    member.client_id = std::move(stored.client_id);
    member.client_host = std::move(stored.client_host);
    member.session_timeout_ms = stored.session_timeout_ms;
    // v0 has no rebalance timeout: Kafka takes the session timeout.
    member.rebalance_timeout_ms =
        value.version >= 1 ? stored.rebalance_timeout_ms : stored.session_timeout_ms;
    member.protocols.push_back(
        GroupProtocol{.name = group.protocol_name, .metadata = std::move(stored.subscription)});
    member.assignment = std::move(stored.assignment);
  }
  return group;
}

// Applies one record; false if it cannot be read.
bool replay(const protocol::BatchRecord& record, LoadedGroups& loaded) {
  if (!record.key) return false;
  const auto key = CoordinatorRecordKey::decode(*record.key);
  if (!key) return false;
  switch (key->type) {
    case CoordinatorRecordType::kLegacyOffsetCommit:
    case CoordinatorRecordType::kOffsetCommit: {
      const TopicPartition partition{key->topic, key->partition};
      if (!record.value) {
        auto group = loaded.offsets.find(key->group_id);
        if (group != loaded.offsets.end()) {
          group->second.erase(partition);
          if (group->second.empty()) loaded.offsets.erase(group);
        }
        return true;
      }
      const auto value = protocol::OffsetCommitValue::decode(*record.value);
      if (!value) return false;
      loaded.offsets[key->group_id][partition] =
          CommittedOffset{.offset = value->offset,
                          .metadata = value->metadata,
                          .leader_epoch = value->leader_epoch,
                          .commit_timestamp_ms = value->commit_timestamp_ms};
      return true;
    }
    case CoordinatorRecordType::kGroupMetadata: {
      if (!record.value) {
        loaded.classic.erase(key->group_id);
        return true;
      }
      auto value = protocol::GroupMetadataValue::decode(*record.value);
      if (!value) return false;
      loaded.classic.insert_or_assign(key->group_id, std::move(*value));
      return true;
    }
    default:
      return replay_consumer(*key, record, loaded);
  }
}

}  // namespace

OffsetsLoadResult load_offsets_partition(const BatchLog& log, std::int32_t partition,
                                         CoordinatorService& service) {
  OffsetsLoadResult result;
  LoadedGroups loaded;
  const CoordinatorLogReplay replayed = replay_coordinator_log(
      log, [&loaded](const protocol::BatchRecord& record) { return replay(record, loaded); });
  result.records = replayed.records;
  result.skipped = replayed.skipped;
  const CoordinatorTopic* topic = service.offsets_topic();
  result.classic_groups = loaded.classic.size();
  // A group's load in the result: refused (logged), or its members counted, and the group
  // too unless its offsets count it below.
  const auto count_load = [&result, &loaded](GroupError error, std::string_view kind,
                                             const std::string& group_id, std::size_t members) {
    if (error != GroupError::kNone) {
      ++result.refused_groups;
      log_warn("could not load " + std::string(kind) + " group \"" + group_id + "\" (" +
               std::string(group_error_name(error)) + "); its offsets are restored without it");
      return;
    }
    result.members += members;
    if (!loaded.offsets.contains(group_id)) ++result.groups;
  };
  // Groups first, members and epochs, so their offsets land in them.
  for (auto& [group_id, value] : loaded.classic) {
    if (topic != nullptr && topic->partition_for(group_id) != partition) continue;
    // An Empty group comes back only with offsets (one without is forgotten, as Kafka's
    // cleanup forgets it).
    if (value.members.empty() && !loaded.offsets.contains(group_id)) continue;
    const std::size_t members = value.members.size();
    count_load(service.load_classic_group(loaded_classic_group(group_id, std::move(value))),
               "classic", group_id, members);
  }
  for (auto& [group_id, records] : loaded.consumer) {
    if (topic != nullptr && topic->partition_for(group_id) != partition) continue;
    std::optional<LoadedConsumerGroup> group = loaded_consumer_group(group_id, records);
    if (!group) continue;
    const std::size_t members = group->members.size();
    count_load(service.load_consumer_group(std::move(*group)), "consumer", group_id, members);
  }
  for (auto& [group_id, offsets] : loaded.offsets) {
    if (topic != nullptr && topic->partition_for(group_id) != partition) continue;
    std::vector<PartitionOffset> restored;
    restored.reserve(offsets.size());
    for (auto& [topic_partition, committed] : offsets) {
      restored.push_back(PartitionOffset{topic_partition, std::move(committed)});
    }
    const std::size_t count = restored.size();
    const OffsetCommitResult stored = service.restore_offsets(group_id, std::move(restored));
    if (stored.error != GroupError::kNone) {
      ++result.refused_groups;
      log_warn("could not restore the offsets of group \"" + group_id + "\" (" +
               std::string(group_error_name(stored.error)) + ")");
      continue;
    }
    ++result.groups;
    result.offsets += count;
  }
  return result;
}

}  // namespace kgroups::broker
