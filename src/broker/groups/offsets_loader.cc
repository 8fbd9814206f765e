// SPDX-License-Identifier: Apache-2.0
#include "broker/groups/offsets_loader.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "broker/groups/coordinator_log_replay.h"
#include "broker/runtime/logger.h"
#include "protocol/batch_records.h"
#include "protocol/coordinator_records/coordinator_record_key.h"
#include "protocol/coordinator_records/offset_commit_value.h"

namespace kgroups::broker {
namespace {

using protocol::CoordinatorRecordKey;
using protocol::CoordinatorRecordType;

// What the log says, group by group, once replayed.
struct LoadedGroups {
  std::map<std::string, std::map<TopicPartition, CommittedOffset>, std::less<>> offsets;
  std::set<std::string, std::less<>> classic;  // groups with a live GroupMetadata record
};

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
    case CoordinatorRecordType::kGroupMetadata:
      if (record.value) {
        loaded.classic.insert(key->group_id);
      } else {
        loaded.classic.erase(key->group_id);
      }
      return true;
    default:
      return true;  // the consumer-group records: their groups come back with members
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
