// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "broker/coordinator/consumer_group_test_harness.h"

namespace kgroups::broker {
namespace {

using std::chrono::milliseconds;

class ConsumerGroupRebalance : public ::testing::Test {
 protected:
  void SetUp() override {
    orders_ = harness_.catalog().create_topic("orders", 6);
    ASSERT_EQ(harness_.join(first_).error, GroupError::kNone);
    ASSERT_EQ(harness_.join(second_).error, GroupError::kNone);
    harness_.settle({&first_, &second_});
    ASSERT_EQ(harness_.describe().group_state, "Stable");
  }

  ConsumerGroupHarness harness_;
  TopicId orders_{};
  HeartbeatingConsumer first_{.topics = {"orders"}};
  HeartbeatingConsumer second_{.topics = {"orders"}};
  HeartbeatingConsumer third_{.topics = {"orders"}};
};

TEST_F(ConsumerGroupRebalance, NewMemberGetsPartitionsOnlyAfterTheirOwnersRevokedThem) {
  ConsumerGroupHeartbeatResult joined = harness_.join(third_);
  ASSERT_EQ(joined.error, GroupError::kNone);
  // Everything is still owned: the newcomer waits, at the new epoch, with nothing.
  EXPECT_TRUE(third_.owned.empty());
  EXPECT_EQ(third_.member_epoch, 3);
  EXPECT_EQ(harness_.describe().group_state, "Reconciling");
  // The old members are told to revoke first; they keep their epoch until they do.
  ASSERT_EQ(harness_.heartbeat(first_).error, GroupError::kNone);
  EXPECT_EQ(first_.member_epoch, 2);
  EXPECT_EQ(harness_.partitions(first_, orders_).size(), 2u);
  EXPECT_TRUE(disjoint({&first_.owned, &second_.owned, &third_.owned}));
  // Until first_ acknowledges the revocation, the newcomer still gets nothing.
  ASSERT_EQ(harness_.heartbeat(third_).error, GroupError::kNone);
  EXPECT_TRUE(third_.owned.empty());
  ASSERT_EQ(harness_.heartbeat(first_).error, GroupError::kNone);  // reports the revocation
  EXPECT_EQ(first_.member_epoch, 3);
  // The newcomer gets only what was released.
  ASSERT_EQ(harness_.heartbeat(third_).error, GroupError::kNone);
  EXPECT_EQ(harness_.partitions(third_, orders_).size(), 1u);
  EXPECT_TRUE(disjoint({&first_.owned, &second_.owned, &third_.owned}));
  harness_.settle({&first_, &second_, &third_});
  for (HeartbeatingConsumer* consumer : {&first_, &second_, &third_}) {
    EXPECT_EQ(harness_.partitions(*consumer, orders_).size(), 2u);
    EXPECT_EQ(consumer->member_epoch, 3);
  }
  EXPECT_TRUE(disjoint({&first_.owned, &second_.owned, &third_.owned}));
  EXPECT_EQ(harness_.describe().group_state, "Stable");
}

TEST_F(ConsumerGroupRebalance, LeaveReassignsTheLeaversPartitions) {
  ConsumerGroupHeartbeatResult left = harness_.leave(second_);
  ASSERT_EQ(left.error, GroupError::kNone);
  EXPECT_EQ(left.member_epoch, kLeaveMemberEpoch);
  EXPECT_EQ(harness_.describe().group_epoch, 3);
  harness_.settle({&first_});
  EXPECT_EQ(harness_.partitions(first_, orders_).size(), 6u);
  EXPECT_EQ(harness_.describe().members.size(), 1u);
}

TEST_F(ConsumerGroupRebalance, SessionExpiryRemovesTheSilentMember) {
  harness_.advance(milliseconds(30000));
  ASSERT_EQ(harness_.heartbeat(first_).error, GroupError::kNone);
  harness_.advance(milliseconds(15001));  // second_ silent for 45001 ms
  ConsumerGroupDescription description = harness_.describe();
  ASSERT_EQ(description.members.size(), 1u);
  EXPECT_EQ(description.members[0].member_id, first_.member_id);
  harness_.settle({&first_});
  EXPECT_EQ(harness_.partitions(first_, orders_).size(), 6u);
  EXPECT_EQ(harness_.heartbeat(second_).error, GroupError::kUnknownMemberId);
}

TEST_F(ConsumerGroupRebalance, MemberThatDoesNotRevokeWithinItsRebalanceTimeoutIsRemoved) {
  ASSERT_EQ(harness_.join(third_).error, GroupError::kNone);
  ASSERT_EQ(harness_.heartbeat(first_).error, GroupError::kNone);  // told to revoke
  for (const ConsumerMemberDescription& member : harness_.describe().members) {
    if (member.member_id == first_.member_id) {
      EXPECT_EQ(member.member_state, "UNREVOKED_PARTITIONS");
    }
  }
  // first_ keeps heartbeating but never reports the revocation.
  HeartbeatingConsumer stubborn = first_;
  for (int i = 0; i < 5; ++i) {
    harness_.advance(milliseconds(5000));
    ConsumerGroupHeartbeatParams params = ConsumerGroupHarness::heartbeat_params(stubborn);
    params.owned_topic_partitions.reset();  // "unchanged": still owns the revoked ones
    ASSERT_EQ(harness_.coordinator().heartbeat(params).error, GroupError::kNone);
    ASSERT_EQ(harness_.heartbeat(second_).error, GroupError::kNone);
    ASSERT_EQ(harness_.heartbeat(third_).error, GroupError::kNone);
  }
  harness_.advance(milliseconds(4999));
  EXPECT_EQ(harness_.describe().members.size(), 3u);
  harness_.advance(milliseconds(1));  // 30000 ms after it was told to revoke
  EXPECT_EQ(harness_.describe().members.size(), 2u);
  ConsumerGroupHeartbeatParams params = ConsumerGroupHarness::heartbeat_params(stubborn);
  EXPECT_EQ(harness_.coordinator().heartbeat(params).error, GroupError::kUnknownMemberId);
}

TEST_F(ConsumerGroupRebalance, AddedPartitionsAreAssigned) {
  harness_.catalog().set_partition_count("orders", 8);
  ASSERT_EQ(harness_.heartbeat(first_).error, GroupError::kNone);
  EXPECT_EQ(harness_.describe().group_epoch, 3);
  harness_.settle({&first_, &second_});
  EXPECT_EQ(harness_.partitions(first_, orders_).size(), 4u);
  EXPECT_EQ(harness_.partitions(second_, orders_).size(), 4u);
  EXPECT_TRUE(disjoint({&first_.owned, &second_.owned}));
}

TEST_F(ConsumerGroupRebalance, UnrelatedTopicChangeKeepsTheGroupEpoch) {
  harness_.catalog().create_topic("payments", 3);
  ASSERT_EQ(harness_.heartbeat(first_).error, GroupError::kNone);
  EXPECT_EQ(harness_.describe().group_epoch, 2);
}

TEST_F(ConsumerGroupRebalance, SubscriptionChangeBumpsTheGroupEpoch) {
  const TopicId payments = harness_.catalog().create_topic("payments", 2);
  ConsumerGroupHeartbeatParams params = ConsumerGroupHarness::heartbeat_params(second_);
  params.subscribed_topic_names = std::vector<std::string>{"orders", "payments"};
  ASSERT_EQ(harness_.send(second_, params).error, GroupError::kNone);
  EXPECT_EQ(harness_.describe().group_epoch, 3);
  second_.topics = {"orders", "payments"};
  harness_.settle({&first_, &second_});
  EXPECT_EQ(harness_.partitions(second_, payments).size(), 2u);
  EXPECT_TRUE(harness_.partitions(first_, payments).empty());
}

}  // namespace
}  // namespace kgroups::broker
