// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "broker/coordinator/consumer_group_test_harness.h"
#include "group/range_assignor.h"

namespace kgroups::broker {
namespace {

TEST(ConsumerGroupHeartbeat, TwoMembersSplitSixPartitionsWithUniform) {
  ConsumerGroupHarness harness;
  const TopicId orders = harness.catalog().create_topic("orders", 6);
  HeartbeatingConsumer first{.topics = {"orders"}};
  HeartbeatingConsumer second{.topics = {"orders"}};
  ASSERT_EQ(harness.join(first).error, GroupError::kNone);
  EXPECT_EQ(harness.partitions(first, orders).size(), 6u);
  ASSERT_EQ(harness.join(second).error, GroupError::kNone);
  harness.settle({&first, &second});
  EXPECT_EQ(harness.partitions(first, orders).size(), 3u);
  EXPECT_EQ(harness.partitions(second, orders).size(), 3u);
  EXPECT_TRUE(disjoint({&first.owned, &second.owned}));
  ConsumerGroupDescription description = harness.describe();
  EXPECT_EQ(description.group_state, "Stable");
  EXPECT_EQ(description.assignor_name, "uniform");
  EXPECT_EQ(description.group_epoch, 2);
  EXPECT_EQ(description.assignment_epoch, 2);
}

TEST(ConsumerGroupHeartbeat, TwoMembersSplitSixPartitionsWithRangeAsTheModelDoes) {
  ConsumerGroupHarness harness;
  const TopicId orders = harness.catalog().create_topic("orders", 6);
  HeartbeatingConsumer first{.topics = {"orders"}, .server_assignor = "range"};
  HeartbeatingConsumer second{.topics = {"orders"}, .server_assignor = "range"};
  ASSERT_EQ(harness.join(first).error, GroupError::kNone);
  ASSERT_EQ(harness.join(second).error, GroupError::kNone);
  harness.settle({&first, &second});
  std::vector<HeartbeatingConsumer*> by_id{&first, &second};
  if (second.member_id < first.member_id) std::swap(by_id[0], by_id[1]);
  std::vector<std::string_view> ids{by_id[0]->member_id, by_id[1]->member_id};
  std::vector<std::vector<int>> expected(2);
  kgroups::RangeAssignor().assign(6, ids, expected);
  for (std::size_t i = 0; i < 2; ++i) {
    std::vector<std::int32_t> wanted(expected[i].begin(), expected[i].end());
    EXPECT_EQ(harness.partitions(*by_id[i], orders), wanted);
  }
  EXPECT_EQ(harness.describe().assignor_name, "range");
}

TEST(ConsumerGroupHeartbeat, UnknownAssignorIsRefused) {
  ConsumerGroupHarness harness;
  harness.catalog().create_topic("orders", 1);
  HeartbeatingConsumer consumer{.topics = {"orders"}, .server_assignor = "sticky"};
  ConsumerGroupHeartbeatResult result = harness.join(consumer);
  EXPECT_EQ(result.error, GroupError::kUnsupportedAssignor);
  EXPECT_FALSE(harness.coordinator().has_group("group"));
}

TEST(ConsumerGroupHeartbeat, RegexSubscriptionIsRefused) {
  ConsumerGroupHarness harness;
  HeartbeatingConsumer consumer{.topics = {"orders"}};
  ConsumerGroupHeartbeatParams params = ConsumerGroupHarness::join_params(consumer);
  params.subscribed_topic_regex = "ord.*";
  ConsumerGroupHeartbeatResult result = harness.coordinator().heartbeat(params);
  EXPECT_EQ(result.error, GroupError::kInvalidRequest);
  EXPECT_EQ(result.error_message, "regex subscriptions are not supported");
}

// librdkafka 2.12 joins with subscribed_topic_regex "" next to its topic names.
TEST(ConsumerGroupHeartbeat, EmptyRegexIsNoRegex) {
  ConsumerGroupHarness harness;
  const TopicId orders = harness.catalog().create_topic("orders", 2);
  HeartbeatingConsumer consumer{.topics = {"orders"}};
  ConsumerGroupHeartbeatParams params = ConsumerGroupHarness::join_params(consumer);
  params.subscribed_topic_regex = "";
  ConsumerGroupHeartbeatResult result = harness.coordinator().heartbeat(params);
  EXPECT_EQ(result.error, GroupError::kNone);
  ASSERT_TRUE(result.assignment.has_value());
  ASSERT_EQ(result.assignment->size(), 1u);
  EXPECT_EQ((*result.assignment)[0].topic_id, orders);
  EXPECT_EQ((*result.assignment)[0].partitions.size(), 2u);
}

TEST(ConsumerGroupHeartbeat, InvalidEpochIsRefused) {
  ConsumerGroupHarness harness;
  HeartbeatingConsumer consumer{.topics = {"orders"}, .member_id = "m"};
  ConsumerGroupHeartbeatParams params = ConsumerGroupHarness::heartbeat_params(consumer);
  params.member_epoch = -3;
  EXPECT_EQ(harness.coordinator().heartbeat(params).error, GroupError::kInvalidRequest);
}

TEST(ConsumerGroupHeartbeat, JoinWithoutSubscriptionIsInvalid) {
  ConsumerGroupHarness harness;
  HeartbeatingConsumer consumer;
  EXPECT_EQ(harness.join(consumer).error, GroupError::kInvalidRequest);
}

TEST(ConsumerGroupHeartbeat, V0JoinGetsAGeneratedMemberIdAndV1KeepsItsOwn) {
  ConsumerGroupHarness harness;
  harness.catalog().create_topic("orders", 2);
  HeartbeatingConsumer v0{.topics = {"orders"}};
  ASSERT_EQ(harness.join(v0).error, GroupError::kNone);
  EXPECT_EQ(v0.member_id.size(), 22u);
  HeartbeatingConsumer v1{.topics = {"orders"}, .member_id = "client-chosen-uuid"};
  ASSERT_EQ(harness.join(v1).error, GroupError::kNone);
  EXPECT_EQ(v1.member_id, "client-chosen-uuid");
}

TEST(ConsumerGroupHeartbeat, UnknownMemberIsRefused) {
  ConsumerGroupHarness harness;
  harness.catalog().create_topic("orders", 2);
  HeartbeatingConsumer member{.topics = {"orders"}};
  ASSERT_EQ(harness.join(member).error, GroupError::kNone);
  HeartbeatingConsumer stranger{.topics = {"orders"}, .member_id = "nobody", .member_epoch = 1};
  EXPECT_EQ(harness.heartbeat(stranger).error, GroupError::kUnknownMemberId);
}

TEST(ConsumerGroupHeartbeat, EpochAheadIsFenced) {
  ConsumerGroupHarness harness;
  harness.catalog().create_topic("orders", 2);
  HeartbeatingConsumer member{.topics = {"orders"}};
  ASSERT_EQ(harness.join(member).error, GroupError::kNone);
  HeartbeatingConsumer ahead = member;
  ahead.member_epoch += 1;
  EXPECT_EQ(harness.heartbeat(ahead).error, GroupError::kFencedMemberEpoch);
}

TEST(ConsumerGroupHeartbeat, PreviousEpochWithOwnedSubsetIsAcceptedButOlderIsFenced) {
  ConsumerGroupHarness harness;
  harness.catalog().create_topic("orders", 4);
  HeartbeatingConsumer first{.topics = {"orders"}};
  ASSERT_EQ(harness.join(first).error, GroupError::kNone);  // epoch 1
  HeartbeatingConsumer second{.topics = {"orders"}};
  ASSERT_EQ(harness.join(second).error, GroupError::kNone);
  harness.settle({&first, &second});  // first: epoch 2 with two partitions
  ASSERT_EQ(first.member_epoch, 2);
  // The response that moved `first` to epoch 2 was lost: it comes back with epoch 1,
  // owning a subset of what it is assigned.
  HeartbeatingConsumer lost = first;
  lost.member_epoch = 1;
  EXPECT_EQ(harness.heartbeat(lost).error, GroupError::kNone);
  EXPECT_EQ(lost.member_epoch, 2);
  // Epoch 1 owning a partition it is not assigned is fenced.
  HeartbeatingConsumer zombie = first;
  zombie.member_epoch = 1;
  zombie.owned = second.owned;
  EXPECT_EQ(harness.heartbeat(zombie).error, GroupError::kFencedMemberEpoch);
}

TEST(ConsumerGroupHeartbeat, GroupFullRefusesANewMember) {
  ConsumerGroupHarness harness(ConsumerGroupConfig{.max_group_size = 1});
  harness.catalog().create_topic("orders", 2);
  HeartbeatingConsumer first{.topics = {"orders"}};
  HeartbeatingConsumer second{.topics = {"orders"}};
  ASSERT_EQ(harness.join(first).error, GroupError::kNone);
  EXPECT_EQ(harness.join(second).error, GroupError::kGroupMaxSizeReached);
  EXPECT_EQ(harness.describe().members.size(), 1u);
}

TEST(ConsumerGroupHeartbeat, AssignmentIsSentOnlyWhenItChanges) {
  ConsumerGroupHarness harness;
  harness.catalog().create_topic("orders", 2);
  HeartbeatingConsumer member{.topics = {"orders"}};
  ASSERT_TRUE(harness.join(member).assignment.has_value());
  ConsumerGroupHeartbeatResult result = harness.heartbeat(member);
  EXPECT_EQ(result.error, GroupError::kNone);
  EXPECT_FALSE(result.assignment.has_value());
  EXPECT_EQ(result.heartbeat_interval_ms, 5000);
}

}  // namespace
}  // namespace kgroups::broker
