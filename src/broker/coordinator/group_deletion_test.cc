// SPDX-License-Identifier: Apache-2.0
//
// DeleteGroups, OffsetDelete and a deleted topic's offsets, in both coordinators.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "broker/coordinator/consumer_group_test_harness.h"
#include "broker/coordinator/consumer_protocol.h"
#include "broker/coordinator/coordinator_test_harness.h"

namespace kgroups::broker {
namespace {

// A ConsumerProtocolSubscription v0 naming `topics`, with null user data.
std::vector<std::uint8_t> subscription(const std::vector<std::string>& topics) {
  std::vector<std::uint8_t> out{0, 0};  // version 0
  const auto put32 = [&out](std::uint32_t value) {
    for (int shift = 24; shift >= 0; shift -= 8)
      out.push_back(static_cast<std::uint8_t>(value >> shift));
  };
  put32(static_cast<std::uint32_t>(topics.size()));
  for (const std::string& topic : topics) {
    out.push_back(static_cast<std::uint8_t>(topic.size() >> 8));
    out.push_back(static_cast<std::uint8_t>(topic.size()));
    out.insert(out.end(), topic.begin(), topic.end());
  }
  put32(0xFFFFFFFF);  // user data: null
  return out;
}

OffsetCommitParams outside_commit(std::string group_id, std::vector<TopicPartition> partitions) {
  OffsetCommitParams params;
  params.group_id = std::move(group_id);
  for (TopicPartition& partition : partitions) {
    params.offsets.push_back({std::move(partition), {42, "meta"}});
  }
  return params;
}

TEST(ConsumerProtocolSubscription, ReadsTheTopicsAndRefusesTruncatedOrLyingBytes) {
  const std::vector<std::uint8_t> bytes = subscription({"orders", "payments"});
  EXPECT_EQ(consumer_subscription_topics(bytes), (std::vector<std::string>{"orders", "payments"}));
  for (std::size_t cut = 0; cut < 6 + 2 + 6; ++cut) {  // inside the header or the first name
    EXPECT_FALSE(consumer_subscription_topics({bytes.data(), cut}).has_value()) << cut;
  }
  std::vector<std::uint8_t> huge_count = bytes;
  huge_count[2] = 0x7F;
  EXPECT_FALSE(consumer_subscription_topics(huge_count).has_value());
  std::vector<std::uint8_t> negative_length = bytes;
  negative_length[6] = 0xFF;
  EXPECT_FALSE(consumer_subscription_topics(negative_length).has_value());
}

class ClassicGroupDeletion : public ::testing::Test {
 protected:
  GroupCoordinator& coordinator() { return harness_.coordinator(); }

  // A Stable group "live" of one member subscribed to "orders", with offsets committed by
  // the member for orders-0 and other-0.
  void form_live_group() {
    JoinGroupParams params = CoordinatorHarness::join_params("live");
    params.protocols = {GroupProtocol{"range", subscription({"orders"})}};
    JoinCapture join = harness_.join(std::move(params));
    ASSERT_TRUE(join.done());
    ASSERT_EQ(join.result().error, GroupError::kNone);
    member_id_ = join.result().member_id;
    const std::int32_t generation = join.result().generation_id;
    ASSERT_EQ(harness_.sync("live", generation, member_id_, {{member_id_, {}}}).result().error,
              GroupError::kNone);
    OffsetCommitParams commit = outside_commit("live", {{"orders", 0}, {"other", 0}});
    commit.generation_id = generation;
    commit.member_id = member_id_;
    ASSERT_EQ(coordinator().commit_offsets(commit).error, GroupError::kNone);
  }

  CoordinatorHarness harness_;
  std::string member_id_;
};

TEST_F(ClassicGroupDeletion, DeletesOnlyGroupsWithoutMembersAndReleasesTheirBytes) {
  EXPECT_EQ(coordinator().delete_group("nobody"), GroupError::kGroupIdNotFound);
  EXPECT_EQ(coordinator().delete_group(""), GroupError::kInvalidGroupId);
  form_live_group();
  ASSERT_EQ(coordinator().commit_offsets(outside_commit("idle", {{"orders", 0}})).error,
            GroupError::kNone);
  const std::size_t with_idle = coordinator().stored_bytes();

  EXPECT_EQ(coordinator().delete_group("live"), GroupError::kNonEmptyGroup);
  EXPECT_EQ(coordinator().fetch_offsets("live", std::nullopt).size(), 2u);
  EXPECT_EQ(coordinator().delete_group("idle"), GroupError::kNone);
  EXPECT_FALSE(coordinator().has_group("idle"));
  EXPECT_TRUE(coordinator().fetch_offsets("idle", std::nullopt).empty());
  EXPECT_LT(coordinator().stored_bytes(), with_idle);
  EXPECT_EQ(coordinator().stored_bytes(), coordinator().recount_stored_bytes());
  EXPECT_EQ(coordinator().delete_group("idle"), GroupError::kGroupIdNotFound);
}

TEST_F(ClassicGroupDeletion, OffsetDeleteKeepsTheTopicsTheMembersSubscribeTo) {
  form_live_group();
  const OffsetDeleteResult result =
      coordinator().delete_offsets("live", {{"orders", 0}, {"other", 0}, {"other", 5}});
  ASSERT_EQ(result.error, GroupError::kNone);
  EXPECT_EQ(result.partition_errors,
            (std::vector<GroupError>{GroupError::kGroupSubscribedToTopic, GroupError::kNone,
                                     GroupError::kNone}));
  const std::vector<PartitionOffset> left = coordinator().fetch_offsets("live", std::nullopt);
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].topic_partition.topic, "orders");
  EXPECT_EQ(coordinator().stored_bytes(), coordinator().recount_stored_bytes());
  EXPECT_EQ(coordinator().delete_offsets("nobody", {{"orders", 0}}).error,
            GroupError::kGroupIdNotFound);
}

TEST_F(ClassicGroupDeletion, OffsetDeleteOfAnEmptyGroupDeletesAllAndForgetsTheEmptiedGroup) {
  ASSERT_EQ(
      coordinator().commit_offsets(outside_commit("idle", {{"orders", 0}, {"orders", 1}})).error,
      GroupError::kNone);
  EXPECT_EQ(coordinator().delete_offsets("idle", {{"orders", 0}}).partition_errors,
            std::vector<GroupError>{GroupError::kNone});
  EXPECT_TRUE(coordinator().has_group("idle"));
  EXPECT_EQ(coordinator().delete_offsets("idle", {{"orders", 1}}).error, GroupError::kNone);
  EXPECT_FALSE(coordinator().has_group("idle"));
  EXPECT_EQ(coordinator().stored_bytes(), 0u);
}

TEST_F(ClassicGroupDeletion, ADeletedTopicsOffsetsLeaveEveryGroup) {
  form_live_group();
  ASSERT_EQ(
      coordinator().commit_offsets(outside_commit("idle", {{"other", 0}, {"other", 1}})).error,
      GroupError::kNone);
  coordinator().delete_topic_offsets("other");
  EXPECT_EQ(coordinator().fetch_offsets("live", std::nullopt).size(), 1u);
  EXPECT_FALSE(coordinator().has_group("idle"));
  EXPECT_TRUE(coordinator().has_group("live"));
  EXPECT_EQ(coordinator().stored_bytes(), coordinator().recount_stored_bytes());
}

class ConsumerGroupDeletion : public ::testing::Test {
 protected:
  void SetUp() override {
    harness_.catalog().create_topic("orders", 2);
    harness_.catalog().create_topic("other", 2);
    ASSERT_EQ(harness_.join(member_).error, GroupError::kNone);
    OffsetCommitParams commit = outside_commit("group", {{"orders", 0}, {"other", 0}});
    commit.member_id = member_.member_id;
    commit.generation_id = member_.member_epoch;
    ASSERT_EQ(coordinator().commit_offsets(commit).error, GroupError::kNone);
  }
  ConsumerGroupCoordinator& coordinator() { return harness_.coordinator(); }
  std::size_t offsets_left() {
    return coordinator()
        .fetch_offsets({.group_id = "group", .partitions = std::nullopt})
        .offsets.size();
  }

  ConsumerGroupHarness harness_;
  HeartbeatingConsumer member_{.topics = {"orders"}};
};

TEST_F(ConsumerGroupDeletion, AGroupWithMembersIsNotDeletedAnEmptyOneIsWithItsOffsets) {
  EXPECT_EQ(coordinator().delete_group("nobody"), GroupError::kGroupIdNotFound);
  EXPECT_EQ(coordinator().delete_group("group"), GroupError::kNonEmptyGroup);
  ASSERT_EQ(harness_.leave(member_).error, GroupError::kNone);
  ASSERT_TRUE(coordinator().has_group("group"));  // kept for its offsets
  EXPECT_GT(coordinator().stored_bytes(), 0u);
  EXPECT_EQ(coordinator().delete_group("group"), GroupError::kNone);
  EXPECT_FALSE(coordinator().has_group("group"));
  EXPECT_EQ(coordinator().stored_bytes(), 0u);
}

TEST_F(ConsumerGroupDeletion, OffsetDeleteKeepsSubscribedTopicsAndReleasesTheRest) {
  const std::size_t before = coordinator().stored_bytes();
  const OffsetDeleteResult result =
      coordinator().delete_offsets("group", {{"orders", 0}, {"other", 0}});
  ASSERT_EQ(result.error, GroupError::kNone);
  EXPECT_EQ(result.partition_errors,
            (std::vector<GroupError>{GroupError::kGroupSubscribedToTopic, GroupError::kNone}));
  EXPECT_EQ(offsets_left(), 1u);
  EXPECT_LT(coordinator().stored_bytes(), before);
}

TEST_F(ConsumerGroupDeletion, ADeletedTopicsOffsetsLeaveTheGroupAndTheirBytesWithThem) {
  const std::size_t before = coordinator().stored_bytes();
  coordinator().delete_topic_offsets("other");
  EXPECT_EQ(offsets_left(), 1u);
  EXPECT_LT(coordinator().stored_bytes(), before);
  ASSERT_EQ(harness_.leave(member_).error, GroupError::kNone);
  coordinator().delete_topic_offsets("orders");
  EXPECT_FALSE(coordinator().has_group("group"));  // no members, no offsets: forgotten
  EXPECT_EQ(coordinator().stored_bytes(), 0u);
}

}  // namespace
}  // namespace kgroups::broker
