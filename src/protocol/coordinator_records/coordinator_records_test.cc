// SPDX-License-Identifier: Apache-2.0
//
// The records of __consumer_offsets: every key type and every value version round-trips,
// and the bytes of an offset commit are the ones Kafka's schemas give, written out by hand.
#include <gtest/gtest.h>

#include <vector>

#include "protocol/coordinator_records/consumer_group_record_values.h"
#include "protocol/coordinator_records/coordinator_record_key.h"
#include "protocol/coordinator_records/group_metadata_value.h"
#include "protocol/coordinator_records/offset_commit_value.h"

namespace kgroups::protocol {
namespace {

using Bytes = std::vector<std::uint8_t>;

TEST(CoordinatorRecordKey, OffsetCommitKeyIsTypeOneThenGroupTopicPartition) {
  const Bytes expected = {0, 1,            // record type 1
                          0, 1, 'g',       // group
                          0, 2, 't', 'p',  // topic
                          0, 0, 0,   7};   // partition
  const CoordinatorRecordKey key = CoordinatorRecordKey::offset_commit("g", "tp", 7);
  EXPECT_EQ(key.encode(), expected);
  const auto decoded = CoordinatorRecordKey::decode(expected);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(*decoded, key);
}

TEST(CoordinatorRecordKey, EveryTypeRoundTrips) {
  std::vector<CoordinatorRecordKey> keys = {
      CoordinatorRecordKey::offset_commit("group", "topic", 3),
      CoordinatorRecordKey::offset_commit("g", "t", 0)};
  keys.back().type = CoordinatorRecordType::kLegacyOffsetCommit;
  for (const auto type :
       {CoordinatorRecordType::kGroupMetadata, CoordinatorRecordType::kConsumerGroupMetadata,
        CoordinatorRecordType::kConsumerGroupPartitionMetadata,
        CoordinatorRecordType::kConsumerGroupTargetAssignmentMetadata}) {
    keys.push_back(CoordinatorRecordKey::group(type, "group"));
  }
  for (const auto type : {CoordinatorRecordType::kConsumerGroupMemberMetadata,
                          CoordinatorRecordType::kConsumerGroupTargetAssignmentMember,
                          CoordinatorRecordType::kConsumerGroupCurrentMemberAssignment}) {
    keys.push_back(CoordinatorRecordKey::member(type, "group", "member-1"));
  }
  for (const CoordinatorRecordKey& key : keys) {
    const auto decoded = CoordinatorRecordKey::decode(key.encode());
    ASSERT_TRUE(decoded) << coordinator_record_type_name(key.type);
    EXPECT_EQ(*decoded, key);
  }
}

TEST(CoordinatorRecordKey, UnknownTypeTruncatedAndTrailingBytesAreCorrupt) {
  EXPECT_FALSE(CoordinatorRecordKey::decode(Bytes{0, 42, 0, 1, 'g'}));
  EXPECT_FALSE(CoordinatorRecordKey::decode(Bytes{0, 2, 0, 5, 'g'}));
  EXPECT_FALSE(CoordinatorRecordKey::decode(Bytes{0, 2, 0, 1, 'g', 0}));
}

TEST(OffsetCommitValue, VersionThreeIsOffsetEpochMetadataTimestamp) {
  const OffsetCommitValue value{.version = 3,
                                .offset = 0x0102,
                                .leader_epoch = 5,
                                .metadata = "m",
                                .commit_timestamp_ms = 0x0A0B};
  const Bytes expected = {0, 3,                         // version
                          0, 0, 0,   0, 0, 0, 1,  2,    // offset
                          0, 0, 0,   5,                 // leader epoch
                          0, 1, 'm',                    // metadata
                          0, 0, 0,   0, 0, 0, 10, 11};  // commit timestamp
  EXPECT_EQ(value.encode(), expected);
}

TEST(OffsetCommitValue, EveryVersionRoundTrips) {
  for (std::int16_t version = 0; version <= OffsetCommitValue::kMaxVersion; ++version) {
    OffsetCommitValue value{.version = version,
                            .offset = 1234567890123,
                            .leader_epoch = version >= 3 ? 9 : -1,
                            .metadata = "some metadata",
                            .commit_timestamp_ms = 1700000000000,
                            .expire_timestamp_ms = version == 1 ? 1800000000000 : -1};
    const auto decoded = OffsetCommitValue::decode(value.encode());
    ASSERT_TRUE(decoded) << "version " << version;
    EXPECT_EQ(*decoded, value) << "version " << version;
  }
  EXPECT_FALSE(OffsetCommitValue::decode(Bytes{0, 5, 0, 0}));
}

GroupMetadataValue sample_group(std::int16_t version) {
  GroupMetadataValue value;
  value.version = version;
  value.protocol_type = "consumer";
  value.generation = 4;
  value.protocol = "range";
  value.leader = "member-a";
  value.current_state_timestamp_ms = version >= 2 ? 1700000000000 : -1;
  for (const char* id : {"member-a", "member-b"}) {
    GroupMetadataMember member;
    member.member_id = id;
    if (version >= 3) member.group_instance_id = std::string("instance-") + id;
    member.client_id = "client";
    member.client_host = "/127.0.0.1";
    member.rebalance_timeout_ms = version >= 1 ? 300000 : 0;
    member.session_timeout_ms = 45000;
    member.subscription = {0, 1, 2};
    member.assignment = {3, 4};
    value.members.push_back(member);
  }
  return value;
}

TEST(GroupMetadataValue, EveryVersionRoundTrips) {
  for (std::int16_t version = 0; version <= GroupMetadataValue::kMaxVersion; ++version) {
    const GroupMetadataValue value = sample_group(version);
    const auto decoded = GroupMetadataValue::decode(value.encode());
    ASSERT_TRUE(decoded) << "version " << version;
    EXPECT_EQ(*decoded, value) << "version " << version;
  }
}

TEST(GroupMetadataValue, EmptyGroupHasNullProtocolAndLeader) {
  GroupMetadataValue value;
  value.protocol_type = "consumer";
  value.generation = 7;
  const Bytes bytes = value.encode();
  const Bytes expected = {0,    3,  // version
                          0,    8,    'c',  'o',  'n',  's',  'u',  'm',
                          'e',  'r',  0,    0,    0,    7,  // generation
                          0xff, 0xff, 0xff, 0xff,           // null protocol, null leader
                          0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,  // timestamp -1
                          0,    0,    0,    0};                            // no members
  EXPECT_EQ(bytes, expected);
  const auto decoded = GroupMetadataValue::decode(bytes);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(*decoded, value);
}

TEST(ConsumerGroupRecordValues, EveryValueRoundTrips) {
  const ConsumerGroupMetadataValue metadata{.epoch = 12};
  EXPECT_EQ(ConsumerGroupMetadataValue::decode(metadata.encode()).value(), metadata);

  const ConsumerGroupMemberMetadataValue member{.instance_id = "i",
                                                .rack_id = std::nullopt,
                                                .client_id = "client",
                                                .client_host = "/10.0.0.1",
                                                .subscribed_topic_names = {"a", "b"},
                                                .subscribed_topic_regex = "x.*",
                                                .rebalance_timeout_ms = 300000,
                                                .server_assignor = "uniform"};
  EXPECT_EQ(ConsumerGroupMemberMetadataValue::decode(member.encode()).value(), member);

  const ConsumerGroupTargetAssignmentMetadataValue target{.assignment_epoch = 12};
  EXPECT_EQ(ConsumerGroupTargetAssignmentMetadataValue::decode(target.encode()).value(), target);

  Uuid topic_id{};
  topic_id[0] = 0xAB;
  topic_id[15] = 0x01;
  const ConsumerGroupTargetAssignmentMemberValue target_member{
      .topic_partitions = {{.topic_id = topic_id, .partitions = {0, 2, 4}}}};
  EXPECT_EQ(ConsumerGroupTargetAssignmentMemberValue::decode(target_member.encode()).value(),
            target_member);

  const ConsumerGroupCurrentMemberAssignmentValue current{
      .member_epoch = 12,
      .previous_member_epoch = 11,
      .state = 1,
      .assigned_partitions = {{.topic_id = topic_id, .partitions = {0}}},
      .partitions_pending_revocation = {{.topic_id = topic_id, .partitions = {2}}}};
  EXPECT_EQ(ConsumerGroupCurrentMemberAssignmentValue::decode(current.encode()).value(), current);
}

TEST(ConsumerGroupRecordValues, GroupMetadataVersionZeroBytes) {
  // version 0, epoch 3, an empty tagged-field section.
  const Bytes expected = {0, 0, 0, 0, 0, 3, 0};
  EXPECT_EQ(ConsumerGroupMetadataValue{.epoch = 3}.encode(), expected);
  EXPECT_FALSE(ConsumerGroupMetadataValue::decode(Bytes{0, 1, 0, 0, 0, 3, 0}));
}

}  // namespace
}  // namespace kgroups::protocol
