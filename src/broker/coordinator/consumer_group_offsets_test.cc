// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "broker/coordinator/consumer_group_test_harness.h"

namespace kgroups::broker {
namespace {

OffsetCommitParams commit(std::string member_id, std::int32_t epoch, std::int64_t offset) {
  return OffsetCommitParams{
      "group", epoch, std::move(member_id), {PartitionOffset{{"orders", 0}, {offset, ""}}}, {}};
}

class ConsumerGroupOffsets : public ::testing::Test {
 protected:
  void SetUp() override {
    harness_.catalog().create_topic("orders", 2);
    ASSERT_EQ(harness_.join(member_).error, GroupError::kNone);
  }

  std::int64_t committed() {
    ConsumerOffsetFetchParams params{.group_id = "group",
                                     .partitions = std::vector<TopicPartition>{{"orders", 0}}};
    return harness_.coordinator().fetch_offsets(params).offsets.at(0).committed.offset;
  }

  ConsumerGroupHarness harness_;
  HeartbeatingConsumer member_{.topics = {"orders"}};
};

TEST_F(ConsumerGroupOffsets, MemberCommitsAtItsEpoch) {
  OffsetCommitResult result =
      harness_.coordinator().commit_offsets(commit(member_.member_id, member_.member_epoch, 7));
  EXPECT_EQ(result.error, GroupError::kNone);
  EXPECT_EQ(committed(), 7);
}

TEST_F(ConsumerGroupOffsets, OtherEpochIsStale) {
  OffsetCommitResult result =
      harness_.coordinator().commit_offsets(commit(member_.member_id, member_.member_epoch + 1, 7));
  EXPECT_EQ(result.error, GroupError::kStaleMemberEpoch);
  EXPECT_EQ(committed(), -1);
}

TEST_F(ConsumerGroupOffsets, NonMemberIsUnknown) {
  EXPECT_EQ(harness_.coordinator().commit_offsets(commit("nobody", 1, 7)).error,
            GroupError::kUnknownMemberId);
}

TEST_F(ConsumerGroupOffsets, AdminCommitOnlyWhileTheGroupIsEmpty) {
  EXPECT_EQ(harness_.coordinator().commit_offsets(commit("", -1, 7)).error,
            GroupError::kUnknownMemberId);
  ASSERT_EQ(harness_.leave(member_).error, GroupError::kNone);
  EXPECT_EQ(harness_.coordinator().commit_offsets(commit("", -1, 9)).error, GroupError::kNone);
  EXPECT_EQ(committed(), 9);
  EXPECT_EQ(harness_.describe().group_state, "Empty");
}

TEST_F(ConsumerGroupOffsets, FetchChecksTheMemberEpochWhenGiven) {
  ConsumerOffsetFetchParams params{.group_id = "group",
                                   .member_id = member_.member_id,
                                   .member_epoch = member_.member_epoch + 1};
  EXPECT_EQ(harness_.coordinator().fetch_offsets(params).error, GroupError::kStaleMemberEpoch);
  params.member_epoch = member_.member_epoch;
  EXPECT_EQ(harness_.coordinator().fetch_offsets(params).error, GroupError::kNone);
  params.member_id = "nobody";
  EXPECT_EQ(harness_.coordinator().fetch_offsets(params).error, GroupError::kUnknownMemberId);
}

TEST_F(ConsumerGroupOffsets, ListingShowsTheConsumerGroup) {
  std::vector<GroupListing> listings = harness_.coordinator().list_groups();
  ASSERT_EQ(listings.size(), 1u);
  EXPECT_EQ(listings[0].group_id, "group");
  EXPECT_EQ(listings[0].protocol_type, "consumer");
  EXPECT_EQ(listings[0].state, "Stable");
  EXPECT_EQ(harness_.coordinator().describe_group("other").error, GroupError::kGroupIdNotFound);
}

}  // namespace
}  // namespace kgroups::broker
