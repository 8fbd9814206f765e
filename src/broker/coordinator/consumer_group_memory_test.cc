// SPDX-License-Identifier: Apache-2.0
//
// ConsumerGroupConfig::max_stored_bytes: what members keep (ids, subscribed topic names) is
// counted, a heartbeat that would keep more is refused with COORDINATOR_LOAD_IN_PROGRESS and
// changes nothing, and members that go give their bytes back.
#include <gtest/gtest.h>

#include <string>

#include "broker/coordinator/consumer_group_test_harness.h"

namespace kgroups::broker {
namespace {

HeartbeatingConsumer subscriber(std::string group_id, std::size_t topics, std::size_t name_bytes) {
  HeartbeatingConsumer consumer{.group_id = std::move(group_id)};
  for (std::size_t i = 0; i < topics; ++i) {
    std::string name = std::to_string(i);
    name.resize(name_bytes, 'x');
    consumer.topics.push_back(std::move(name));
  }
  return consumer;
}

TEST(ConsumerGroupMemory, MembersAreCountedAndGiveTheirBytesBackWhenTheyLeave) {
  ConsumerGroupHarness harness;
  EXPECT_EQ(harness.coordinator().stored_bytes(), 0u);
  HeartbeatingConsumer small = subscriber("g", 1, 10);
  HeartbeatingConsumer large = subscriber("g", 100, 500);
  ASSERT_EQ(harness.join(small).error, GroupError::kNone);
  const std::size_t one = harness.coordinator().stored_bytes();
  EXPECT_GT(one, 0u);
  ASSERT_EQ(harness.join(large).error, GroupError::kNone);
  EXPECT_GT(harness.coordinator().stored_bytes(),
            one + std::size_t{100} * 500);  // names are counted
  ASSERT_EQ(harness.leave(large, kLeaveMemberEpoch).error, GroupError::kNone);
  EXPECT_EQ(harness.coordinator().stored_bytes(), one);
  ASSERT_EQ(harness.leave(small, kLeaveMemberEpoch).error, GroupError::kNone);
  EXPECT_EQ(harness.coordinator().stored_bytes(), 0u);
}

TEST(ConsumerGroupMemory, AJoinPastTheBoundIsRefusedAndChangesNothing) {
  ConsumerGroupHarness harness(ConsumerGroupConfig{.max_stored_bytes = std::size_t{64} * 1024});
  HeartbeatingConsumer first = subscriber("g", 10, 100);
  ASSERT_EQ(harness.join(first).error, GroupError::kNone);
  const std::size_t before = harness.coordinator().stored_bytes();
  const std::int32_t group_epoch = harness.describe("g").group_epoch;

  HeartbeatingConsumer greedy = subscriber("g", 200, 1000);  // about 200 KB of topic names
  const ConsumerGroupHeartbeatResult refused = harness.join(greedy);
  EXPECT_EQ(refused.error, GroupError::kCoordinatorLoadInProgress);
  EXPECT_NE(refused.error_message.find("--max-memory"), std::string::npos);
  EXPECT_EQ(harness.coordinator().stored_bytes(), before);
  EXPECT_EQ(harness.describe("g").group_epoch, group_epoch);
  EXPECT_EQ(harness.describe("g").members.size(), 1u);
  // A new group is refused the same way, and not created.
  HeartbeatingConsumer elsewhere = subscriber("other", 200, 1000);
  EXPECT_EQ(harness.join(elsewhere).error, GroupError::kCoordinatorLoadInProgress);
  EXPECT_EQ(harness.describe("other").error, GroupError::kGroupIdNotFound);
  // What fits still joins.
  HeartbeatingConsumer modest = subscriber("g", 5, 100);
  EXPECT_EQ(harness.join(modest).error, GroupError::kNone);
}

TEST(ConsumerGroupMemory, AMemberMayShrinkItsSubscriptionWhenTheBoundIsReached) {
  ConsumerGroupHarness harness;
  HeartbeatingConsumer member = subscriber("g", 50, 200);
  ASSERT_EQ(harness.join(member).error, GroupError::kNone);
  harness.coordinator().set_max_stored_bytes(harness.coordinator().stored_bytes());
  member.topics.resize(10);
  ConsumerGroupHeartbeatParams params = ConsumerGroupHarness::heartbeat_params(member);
  params.subscribed_topic_names = member.topics;
  EXPECT_EQ(harness.send(member, params).error, GroupError::kNone);
  member.topics = subscriber("g", 60, 200).topics;
  params = ConsumerGroupHarness::heartbeat_params(member);
  params.subscribed_topic_names = member.topics;
  EXPECT_EQ(harness.send(member, params).error, GroupError::kCoordinatorLoadInProgress);
}

}  // namespace
}  // namespace kgroups::broker

namespace kgroups::broker {
namespace {

TEST(ConsumerGroupMemory, CommittedOffsetsCountAndACommitPastTheBoundStoresNothing) {
  ConsumerGroupHarness harness;
  HeartbeatingConsumer member = subscriber("g", 1, 10);
  ASSERT_EQ(harness.join(member).error, GroupError::kNone);
  const std::size_t members_only = harness.coordinator().stored_bytes();
  OffsetCommitParams commit;
  commit.group_id = "g";
  commit.member_id = member.member_id;
  commit.generation_id = member.member_epoch;
  for (int i = 0; i < 100; ++i) {
    commit.offsets.push_back({.topic_partition = {"topic-" + std::to_string(i), 0},
                              .committed = {.offset = 1, .metadata = std::string(1000, 'm')}});
  }
  ASSERT_EQ(harness.coordinator().commit_offsets(commit).error, GroupError::kNone);
  const std::size_t with_offsets = harness.coordinator().stored_bytes();
  EXPECT_GT(with_offsets, members_only + std::size_t{100} * 1000);

  harness.coordinator().set_max_stored_bytes(with_offsets + 1000);
  for (PartitionOffset& offset : commit.offsets) offset.topic_partition.partition = 1;
  const OffsetCommitResult refused = harness.coordinator().commit_offsets(commit);
  EXPECT_EQ(refused.error, GroupError::kCoordinatorLoadInProgress);
  EXPECT_EQ(harness.coordinator().stored_bytes(), with_offsets);
  // Committing again where offsets are stored already does not grow anything: allowed.
  for (PartitionOffset& offset : commit.offsets) offset.topic_partition.partition = 0;
  EXPECT_EQ(harness.coordinator().commit_offsets(commit).error, GroupError::kNone);
}

}  // namespace
}  // namespace kgroups::broker
