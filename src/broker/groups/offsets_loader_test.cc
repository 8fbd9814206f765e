// SPDX-License-Identifier: Apache-2.0
//
// The groups' records in __consumer_offsets: what the CoordinatorService writes (offset
// commits, tombstones, a classic group's metadata) and what load_offsets_partition() rebuilds
// from a partition after its groups were unloaded.
#include "broker/groups/offsets_loader.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <tuple>
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
  groups.reserve(12);
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

// A member of "classic" that joined and got its assignment: the group is Stable.
JoinGroupResult join_and_sync(CoordinatorService& service, const std::string& group,
                              std::vector<std::uint8_t> assignment) {
  JoinGroupParams join;
  join.group_id = group;
  join.client_id = "client";
  join.client_host = "/127.0.0.1";
  join.group_instance_id = "instance-1";
  join.session_timeout_ms = 10000;
  join.rebalance_timeout_ms = 20000;
  join.protocol_type = "consumer";
  join.protocols = {GroupProtocol{"range", {1, 2, 3}}, GroupProtocol{"roundrobin", {4}}};
  JoinGroupResult joined;
  service.join_group(join, [&](const JoinGroupResult& result) { joined = result; });
  EXPECT_EQ(joined.error, GroupError::kNone);
  SyncGroupParams sync;
  sync.group_id = group;
  sync.generation_id = joined.generation_id;
  sync.member_id = joined.member_id;
  sync.group_instance_id = "instance-1";
  sync.assignments = {MemberAssignment{joined.member_id, std::move(assignment)}};
  GroupError synced = GroupError::kUnknownMemberId;
  service.sync_group(sync, [&](const SyncGroupResult& result) { synced = result.error; });
  EXPECT_EQ(synced, GroupError::kNone);
  return joined;
}

TEST_F(OffsetsLoaderTest, AMovedClassicGroupComesBackWithItsMembersAndGeneration) {
  const JoinGroupResult member = join_and_sync(service_, "classic", {9, 9});
  OffsetCommitParams params;
  params.group_id = "classic";
  params.member_id = member.member_id;
  params.generation_id = member.generation_id;
  params.offsets = {offset("orders", 0, 17)};
  ASSERT_EQ(service_.commit_offsets(params).error, GroupError::kNone);
  // A second member's JoinGroup waits for the first to rejoin when the coordinator moves
  // away: it gets NOT_COORDINATOR, and is not in the group the log holds.
  JoinGroupParams second;
  second.group_id = "classic";
  second.member_id = "";
  second.client_id = "client-2";
  second.session_timeout_ms = 10000;
  second.rebalance_timeout_ms = 20000;
  second.protocol_type = "consumer";
  second.protocols = {GroupProtocol{"range", {5}}};
  std::optional<GroupError> parked;
  service_.join_group(second, [&](const JoinGroupResult& result) {
    if (result.error != GroupError::kMemberIdRequired) parked = result.error;
  });
  if (!parked) {  // v4+ clients first get MEMBER_ID_REQUIRED; the test's join is the older kind
    EXPECT_EQ(service_.describe_group("classic").state, "PreparingRebalance");
  }
  const std::int32_t partition = offsets_partition_for("classic", kOffsetsPartitions);
  const std::int64_t end_before = log_of("classic").high_watermark();

  EXPECT_EQ(service_.unload_partition(partition), 1u);
  EXPECT_EQ(parked, GroupError::kNotCoordinator);
  EXPECT_EQ(service_.describe_group("classic").state, "Dead");
  EXPECT_TRUE(offsets_of("classic").empty());

  const OffsetsLoadResult loaded = load_offsets_partition(log_of("classic"), partition, service_);
  EXPECT_EQ(loaded.groups, 1u);
  EXPECT_EQ(loaded.members, 1u);
  EXPECT_EQ(loaded.offsets, 1u);
  EXPECT_EQ(log_of("classic").high_watermark(), end_before);  // nothing written back
  const ClassicGroup* group = service_.classic().group("classic");
  ASSERT_NE(group, nullptr);
  EXPECT_EQ(group->state(), ClassicGroupState::kStable);
  EXPECT_EQ(group->generation_id(), member.generation_id);
  EXPECT_EQ(group->protocol_type(), "consumer");
  EXPECT_EQ(group->protocol_name(), "range");
  EXPECT_EQ(group->leader_id(), member.member_id);
  ASSERT_EQ(group->members().size(), 1u);
  const GroupMember& restored = group->members().begin()->second;
  EXPECT_EQ(restored.member_id, member.member_id);
  EXPECT_EQ(restored.group_instance_id, "instance-1");
  EXPECT_EQ(restored.client_id, "client");
  EXPECT_EQ(restored.client_host, "/127.0.0.1");
  EXPECT_EQ(restored.session_timeout_ms, 10000);
  EXPECT_EQ(restored.rebalance_timeout_ms, 20000);
  EXPECT_EQ(restored.protocols, (std::vector<GroupProtocol>{{"range", {1, 2, 3}}}));
  EXPECT_EQ(restored.assignment, (std::vector<std::uint8_t>{9, 9}));
  EXPECT_EQ(service_.classic().stored_bytes(), service_.classic().recount_stored_bytes());
  EXPECT_EQ(offsets_of("classic").at(0).committed.offset, 17);
  // The member goes on in its generation, and its instance id is bound to it.
  EXPECT_EQ(service_.heartbeat("classic", member.generation_id, member.member_id, "instance-1"),
            GroupError::kNone);
  EXPECT_EQ(service_.heartbeat("classic", member.generation_id, "other", "instance-1"),
            GroupError::kFencedInstanceId);
}

TEST_F(OffsetsLoaderTest, ALoadTheCoordinatorsLimitsRefuseCreatesNoGroup) {
  (void)join_and_sync(service_, "classic", {9, 9});
  const std::int32_t partition = offsets_partition_for("classic", kOffsetsPartitions);
  ASSERT_EQ(service_.unload_partition(partition), 1u);
  service_.classic().set_max_stored_bytes(1);  // nothing fits
  const OffsetsLoadResult loaded = load_offsets_partition(log_of("classic"), partition, service_);
  EXPECT_EQ(loaded.refused_groups, 1u);
  EXPECT_EQ(loaded.members, 0u);
  EXPECT_EQ(service_.classic().group("classic"), nullptr);
  EXPECT_EQ(service_.classic().stored_bytes(), 0u);
}

ConsumerGroupHeartbeatParams consumer_join(std::string member_id) {
  ConsumerGroupHeartbeatParams params;
  params.group_id = "consumers";
  params.member_id = std::move(member_id);
  params.member_epoch = 0;
  params.rebalance_timeout_ms = 30000;
  params.subscribed_topic_names = std::vector<std::string>{"orders"};
  params.owned_topic_partitions = std::vector<TopicPartitions>{};
  params.client_id = "client";
  params.client_host = "/127.0.0.1";
  return params;
}

// What the coordinator keeps of a consumer group's member, deadlines aside.
auto member_state(const ConsumerGroupMember& member) {
  return std::tuple(member.member_id, member.instance_id, member.client_id, member.client_host,
                    member.subscribed_topic_names, member.rebalance_timeout_ms,
                    member.server_assignor, member.member_epoch, member.previous_member_epoch,
                    member.state, member.assigned_partitions, member.partitions_pending_revocation);
}

TEST_F(OffsetsLoaderTest, AMovedConsumerGroupComesBackWithItsEpochsAndReconciliation) {
  // The first member takes every partition; the second joins, so the first must revoke half
  // and the second waits for them: both are mid-reconciliation when the coordinator moves.
  const ConsumerGroupHeartbeatResult first =
      service_.consumer_group_heartbeat(consumer_join("member-a"));
  ASSERT_EQ(first.error, GroupError::kNone);
  const ConsumerGroupHeartbeatResult second =
      service_.consumer_group_heartbeat(consumer_join("member-b"));
  ASSERT_EQ(second.error, GroupError::kNone);
  ConsumerGroupHeartbeatParams keep;  // the first member still owns all four
  keep.group_id = "consumers";
  keep.member_id = "member-a";
  keep.member_epoch = first.member_epoch;
  keep.owned_topic_partitions = first.assignment;
  ASSERT_EQ(service_.consumer_group_heartbeat(keep).error, GroupError::kNone);
  const ConsumerGroup* before = service_.consumer().group("consumers");
  ASSERT_NE(before, nullptr);
  ASSERT_EQ(before->find_member("member-a")->partitions_pending_revocation.size(), 1u);
  const std::int32_t group_epoch = before->group_epoch();
  const std::int32_t assignment_epoch = before->assignment_epoch();
  std::vector<decltype(member_state(ConsumerGroupMember{}))> members;
  std::map<std::string, ConsumerAssignment> targets;
  for (const auto& [id, member] : before->members()) {
    members.push_back(member_state(member));
    targets[id] = before->target_of(id);
  }
  ASSERT_EQ(before->find_member("member-a")->state, MemberState::kUnrevokedPartitions);
  ASSERT_EQ(before->find_member("member-b")->state, MemberState::kUnreleasedPartitions);

  const std::int32_t partition = offsets_partition_for("consumers", kOffsetsPartitions);
  const std::int64_t end_before = log_of("consumers").high_watermark();
  EXPECT_EQ(service_.unload_partition(partition), 1u);
  EXPECT_EQ(service_.consumer().group("consumers"), nullptr);

  const OffsetsLoadResult loaded = load_offsets_partition(log_of("consumers"), partition, service_);
  EXPECT_EQ(loaded.groups, 1u);
  EXPECT_EQ(loaded.members, 2u);
  EXPECT_EQ(loaded.skipped, 0u);
  EXPECT_EQ(log_of("consumers").high_watermark(), end_before);  // nothing written back
  const ConsumerGroup* after = service_.consumer().group("consumers");
  ASSERT_NE(after, nullptr);
  EXPECT_EQ(after->group_epoch(), group_epoch);
  EXPECT_EQ(after->assignment_epoch(), assignment_epoch);
  std::vector<decltype(member_state(ConsumerGroupMember{}))> members_after;
  for (const auto& [id, member] : after->members()) {
    members_after.push_back(member_state(member));
    EXPECT_EQ(after->target_of(id), targets[id]) << id;
    EXPECT_TRUE(member.session_deadline.has_value()) << id;
  }
  EXPECT_EQ(members_after, members);

  // The first member revokes what it must, at its epoch, and the second then gets it.
  const ConsumerGroupMember& a = *after->find_member("member-a");
  ConsumerGroupHeartbeatParams revoke;
  revoke.group_id = "consumers";
  revoke.member_id = "member-a";
  revoke.member_epoch = a.member_epoch;
  revoke.owned_topic_partitions = to_topic_partitions(a.assigned_partitions);
  const ConsumerGroupHeartbeatResult revoked = service_.consumer_group_heartbeat(revoke);
  ASSERT_EQ(revoked.error, GroupError::kNone) << revoked.error_message;
  EXPECT_EQ(revoked.member_epoch, group_epoch);
  ConsumerGroupHeartbeatParams poll;
  poll.group_id = "consumers";
  poll.member_id = "member-b";
  poll.member_epoch = second.member_epoch;
  poll.owned_topic_partitions = std::vector<TopicPartitions>{};
  const ConsumerGroupHeartbeatResult polled = service_.consumer_group_heartbeat(poll);
  ASSERT_EQ(polled.error, GroupError::kNone) << polled.error_message;
  ASSERT_TRUE(polled.assignment);
  EXPECT_EQ(polled.assignment->size(), 1u);
  EXPECT_EQ(polled.assignment->at(0).partitions.size(), 2u);
}

TEST_F(OffsetsLoaderTest, WithoutATopicNothingIsWritten) {
  service_.set_offsets_topic(nullptr);
  commit("group-a", {offset("orders", 1, 42)});
  EXPECT_EQ(cluster_.find_topic(kOffsetsTopicName), nullptr);
}

}  // namespace
}  // namespace kgroups::broker
