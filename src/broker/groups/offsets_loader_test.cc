// SPDX-License-Identifier: Apache-2.0
//
// The groups' records in __consumer_offsets: what the CoordinatorService writes (offset
// commits, tombstones, a classic group's metadata) and what load_offsets_partition() rebuilds
// from a partition after its groups were unloaded.
#include "broker/groups/offsets_loader.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "broker/coordinator/in_memory_topic_catalog.h"
#include "broker/groups/offsets_partition.h"
#include "protocol/batch_records.h"
#include "protocol/coordinator_records/coordinator_record_key.h"
#include "protocol/coordinator_records/group_metadata_value.h"
#include "protocol/coordinator_records/offset_commit_value.h"

namespace kgroups::broker {
namespace {

using protocol::CoordinatorRecordKey;
using protocol::CoordinatorRecordType;

constexpr std::int32_t kOffsetsPartitions = 5;

// A record of the log, decoded.
struct LoggedRecord {
  CoordinatorRecordKey key;
  std::optional<std::vector<std::uint8_t>> value;
};

class OffsetsLoaderTest : public ::testing::Test {
 protected:
  OffsetsLoaderTest() : service_(CoordinatorConfig{}, ConsumerGroupConfig{}, catalog_) {
    for (const char* topic : {"orders", "payments"}) {
      catalog_.create_topic(topic, 4);
      (void)cluster_.create_topic(topic, 4);
    }
    service_.set_offsets_topic(&topic_);
  }

  void commit(const std::string& group, std::vector<PartitionOffset> offsets) {
    OffsetCommitParams params;
    params.group_id = group;
    params.offsets = std::move(offsets);
    ASSERT_EQ(service_.commit_offsets(params).error, GroupError::kNone);
  }

  std::vector<PartitionOffset> offsets_of(std::string_view group) {
    return service_.fetch_offsets({.group_id = group, .partitions = std::nullopt}).offsets;
  }

  BatchLog& log_of(std::string_view group) {
    return cluster_.find_topic(kOffsetsTopicName)
        ->partitions[static_cast<std::size_t>(offsets_partition_for(group, kOffsetsPartitions))];
  }

  std::vector<LoggedRecord> records_of(std::string_view group) {
    std::vector<LoggedRecord> out;
    const BatchLog& log = log_of(group);
    for (const StoredBatch& batch : log.batches_from(log.log_start_offset())) {
      auto records = protocol::decode_batch_records(batch.bytes());
      EXPECT_TRUE(records);
      for (const protocol::BatchRecord& record : *records) {
        auto key = CoordinatorRecordKey::decode(*record.key);
        EXPECT_TRUE(key);
        if (key->group_id != group) continue;
        LoggedRecord logged{*key, std::nullopt};
        if (record.value) logged.value.emplace(record.value->begin(), record.value->end());
        out.push_back(std::move(logged));
      }
    }
    return out;
  }

  Cluster cluster_{ClusterConfig{}};
  AppendNotifier notifier_;
  CoordinatorTopic topic_{cluster_, notifier_,
                          CoordinatorTopicConfig{.partitions = kOffsetsPartitions}};
  InMemoryTopicCatalog catalog_;
  CoordinatorService service_;
};

PartitionOffset offset(std::string topic, std::int32_t partition, std::int64_t at,
                       std::string metadata = "", std::int32_t leader_epoch = -1) {
  return PartitionOffset{
      {std::move(topic), partition},
      {.offset = at, .metadata = std::move(metadata), .leader_epoch = leader_epoch}};
}

TEST_F(OffsetsLoaderTest, EveryCommitIsAnOffsetCommitRecordInTheGroupsPartition) {
  commit("group-a", {offset("orders", 1, 42, "meta", 7)});
  const StoredTopic* topic = cluster_.find_topic(kOffsetsTopicName);
  ASSERT_NE(topic, nullptr);
  EXPECT_TRUE(topic->internal);
  EXPECT_TRUE(topic->config.cleanup_compact);
  EXPECT_FALSE(topic->config.cleanup_delete);
  EXPECT_EQ(topic->partitions.size(), std::size_t{kOffsetsPartitions});

  const std::vector<LoggedRecord> records = records_of("group-a");
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].key, CoordinatorRecordKey::offset_commit("group-a", "orders", 1));
  ASSERT_TRUE(records[0].value);
  const auto value = protocol::OffsetCommitValue::decode(*records[0].value);
  ASSERT_TRUE(value);
  EXPECT_EQ(value->version, 3);
  EXPECT_EQ(value->offset, 42);
  EXPECT_EQ(value->metadata, "meta");
  EXPECT_EQ(value->leader_epoch, 7);
  EXPECT_EQ(value->commit_timestamp_ms, offsets_of("group-a").at(0).committed.commit_timestamp_ms);
  EXPECT_GT(value->commit_timestamp_ms, 1'600'000'000'000);  // the wall clock
}

TEST_F(OffsetsLoaderTest, LoadingAPartitionRestoresItsGroupsOffsetsExactly) {
  // Groups spread over the partitions; several land in the same one.
  std::vector<std::string> groups;
  for (int i = 0; i < 12; ++i) groups.push_back("group-" + std::to_string(i));
  for (std::size_t i = 0; i < groups.size(); ++i) {
    const auto at = static_cast<std::int64_t>(i);
    commit(groups[i], {offset("orders", 0, 10 + at, "m" + std::to_string(i), 3),
                       offset("payments", 2, 20 + at)});
    commit(groups[i], {offset("orders", 0, 100 + at, "later", 4)});  // replaces the first
  }
  const std::int32_t partition = offsets_partition_for(groups[0], kOffsetsPartitions);
  std::map<std::string, std::vector<PartitionOffset>> before;
  for (const std::string& group : groups) before[group] = offsets_of(group);

  std::size_t in_partition = 0;
  for (const std::string& group : groups) {
    in_partition += offsets_partition_for(group, kOffsetsPartitions) == partition ? 1 : 0;
  }
  ASSERT_GE(in_partition, 2u);
  EXPECT_EQ(service_.unload_partition(partition), in_partition);
  for (const std::string& group : groups) {
    const bool unloaded = offsets_partition_for(group, kOffsetsPartitions) == partition;
    EXPECT_EQ(offsets_of(group).empty(), unloaded) << group;
  }
  const std::int64_t end_before_load = log_of(groups[0]).high_watermark();

  const OffsetsLoadResult loaded = load_offsets_partition(log_of(groups[0]), partition, service_);
  EXPECT_EQ(loaded.groups, in_partition);
  EXPECT_EQ(loaded.offsets, 2 * in_partition);
  EXPECT_EQ(loaded.skipped, 0u);
  for (const std::string& group : groups) EXPECT_EQ(offsets_of(group), before[group]) << group;
  EXPECT_EQ(log_of(groups[0]).high_watermark(), end_before_load);  // nothing written back
}

TEST_F(OffsetsLoaderTest, DeletedOffsetsAndGroupsAreTombstonesThatLoadingHonours) {
  commit("kept", {offset("orders", 0, 5), offset("orders", 1, 6), offset("payments", 0, 7)});
  commit("deleted", {offset("orders", 0, 8)});
  ASSERT_EQ(service_.delete_offsets("kept", {{"orders", 1}}).error, GroupError::kNone);
  service_.delete_topic_offsets("payments");
  ASSERT_EQ(service_.delete_group("deleted"), GroupError::kNone);

  const std::vector<LoggedRecord> kept = records_of("kept");
  ASSERT_EQ(kept.size(), 5u);
  EXPECT_EQ(kept[3].key, CoordinatorRecordKey::offset_commit("kept", "orders", 1));
  EXPECT_FALSE(kept[3].value);
  EXPECT_EQ(kept[4].key, CoordinatorRecordKey::offset_commit("kept", "payments", 0));
  EXPECT_FALSE(kept[4].value);
  const std::vector<LoggedRecord> deleted = records_of("deleted");
  ASSERT_EQ(deleted.size(), 3u);  // the commit, its tombstone, the group's tombstone
  EXPECT_FALSE(deleted[1].value);
  EXPECT_EQ(deleted[2].key.type, CoordinatorRecordType::kGroupMetadata);
  EXPECT_FALSE(deleted[2].value);

  for (const char* group : {"kept", "deleted"}) {
    const std::int32_t partition = offsets_partition_for(group, kOffsetsPartitions);
    service_.unload_partition(partition);
    (void)load_offsets_partition(log_of(group), partition, service_);
  }
  EXPECT_EQ(offsets_of("kept"), (std::vector<PartitionOffset>{offsets_of("kept").at(0)}));
  EXPECT_EQ(offsets_of("kept").at(0).committed.offset, 5);
  EXPECT_TRUE(offsets_of("deleted").empty());
}

TEST_F(OffsetsLoaderTest, ACompletedClassicRebalanceWritesTheGroupsMetadata) {
  JoinGroupParams join;
  join.group_id = "classic";
  join.client_id = "client";
  join.client_host = "/127.0.0.1";
  join.session_timeout_ms = 10000;
  join.rebalance_timeout_ms = 20000;
  join.protocol_type = "consumer";
  join.protocols = {GroupProtocol{"range", {1, 2, 3}}};
  JoinGroupResult joined;
  service_.join_group(join, [&](const JoinGroupResult& result) { joined = result; });
  ASSERT_EQ(joined.error, GroupError::kNone);
  SyncGroupParams sync;
  sync.group_id = "classic";
  sync.generation_id = joined.generation_id;
  sync.member_id = joined.member_id;
  sync.assignments = {MemberAssignment{joined.member_id, {9, 9}}};
  GroupError synced = GroupError::kUnknownMemberId;
  service_.sync_group(sync, [&](const SyncGroupResult& result) { synced = result.error; });
  ASSERT_EQ(synced, GroupError::kNone);

  const std::vector<LoggedRecord> records = records_of("classic");
  ASSERT_FALSE(records.empty());
  const LoggedRecord& last = records.back();
  EXPECT_EQ(last.key.type, CoordinatorRecordType::kGroupMetadata);
  ASSERT_TRUE(last.value);
  const auto value = protocol::GroupMetadataValue::decode(*last.value);
  ASSERT_TRUE(value);
  EXPECT_EQ(value->version, 3);
  EXPECT_EQ(value->protocol_type, "consumer");
  EXPECT_EQ(value->generation, joined.generation_id);
  EXPECT_EQ(value->protocol, "range");
  EXPECT_EQ(value->leader, joined.member_id);
  ASSERT_EQ(value->members.size(), 1u);
  EXPECT_EQ(value->members[0].member_id, joined.member_id);
  EXPECT_EQ(value->members[0].client_host, "/127.0.0.1");
  EXPECT_EQ(value->members[0].session_timeout_ms, 10000);
  EXPECT_EQ(value->members[0].rebalance_timeout_ms, 20000);
  EXPECT_EQ(value->members[0].subscription, (std::vector<std::uint8_t>{1, 2, 3}));
  EXPECT_EQ(value->members[0].assignment, (std::vector<std::uint8_t>{9, 9}));
}

TEST_F(OffsetsLoaderTest, WithoutATopicNothingIsWritten) {
  service_.set_offsets_topic(nullptr);
  commit("group-a", {offset("orders", 1, 42)});
  EXPECT_EQ(cluster_.find_topic(kOffsetsTopicName), nullptr);
}

}  // namespace
}  // namespace kgroups::broker
