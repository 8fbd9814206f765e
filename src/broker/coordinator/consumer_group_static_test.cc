// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "broker/coordinator/consumer_group_test_harness.h"

namespace kgroups::broker {
namespace {

using std::chrono::milliseconds;

class ConsumerGroupStatic : public ::testing::Test {
 protected:
  void SetUp() override {
    orders_ = harness_.catalog().create_topic("orders", 6);
    ASSERT_EQ(harness_.join(first_).error, GroupError::kNone);
    ASSERT_EQ(harness_.join(second_).error, GroupError::kNone);
    harness_.settle({&first_, &second_});
  }

  ConsumerGroupHarness harness_;
  TopicId orders_{};
  HeartbeatingConsumer first_{.topics = {"orders"}, .instance_id = "instance-a"};
  HeartbeatingConsumer second_{.topics = {"orders"}, .instance_id = "instance-b"};
};

TEST_F(ConsumerGroupStatic, RestartGetsTheSamePartitionsWithoutAGroupEpochBump) {
  const std::vector<std::int32_t> before = harness_.partitions(first_, orders_);
  const std::int32_t group_epoch = harness_.describe().group_epoch;
  ConsumerGroupHeartbeatResult left = harness_.leave(first_, kStaticLeaveMemberEpoch);
  ASSERT_EQ(left.error, GroupError::kNone);
  EXPECT_EQ(left.member_epoch, kStaticLeaveMemberEpoch);
  // The restarted process: same instance id, new member id, owns nothing yet.
  HeartbeatingConsumer restarted{.topics = {"orders"}, .instance_id = "instance-a"};
  ConsumerGroupHeartbeatResult joined = harness_.join(restarted);
  ASSERT_EQ(joined.error, GroupError::kNone);
  EXPECT_NE(restarted.member_id, first_.member_id);
  EXPECT_EQ(harness_.partitions(restarted, orders_), before);
  ConsumerGroupDescription description = harness_.describe();
  EXPECT_EQ(description.group_epoch, group_epoch);
  EXPECT_EQ(description.members.size(), 2u);
  EXPECT_EQ(description.group_state, "Stable");
  EXPECT_EQ(harness_.heartbeat(first_).error, GroupError::kFencedInstanceId);
}

TEST_F(ConsumerGroupStatic, SecondMemberWithALiveInstanceIdIsUnreleased) {
  HeartbeatingConsumer twin{.topics = {"orders"}, .instance_id = "instance-a"};
  EXPECT_EQ(harness_.join(twin).error, GroupError::kUnreleasedInstanceId);
  EXPECT_EQ(harness_.describe().members.size(), 2u);
}

TEST_F(ConsumerGroupStatic, AbsentStaticMemberIsRemovedWhenItsSessionEnds) {
  ASSERT_EQ(harness_.leave(first_, kStaticLeaveMemberEpoch).error, GroupError::kNone);
  // Its partitions stay held for it meanwhile.
  harness_.settle({&second_});
  EXPECT_EQ(harness_.partitions(second_, orders_).size(), 3u);
  harness_.advance(milliseconds(40000));
  ASSERT_EQ(harness_.heartbeat(second_).error, GroupError::kNone);
  harness_.advance(milliseconds(5001));
  EXPECT_EQ(harness_.describe().members.size(), 1u);
  harness_.settle({&second_});
  EXPECT_EQ(harness_.partitions(second_, orders_).size(), 6u);
}

TEST_F(ConsumerGroupStatic, LeaveWithEpochMinusOneRemovesAtOnce) {
  ASSERT_EQ(harness_.leave(first_).error, GroupError::kNone);
  EXPECT_EQ(harness_.describe().members.size(), 1u);
  HeartbeatingConsumer newcomer{.topics = {"orders"}, .instance_id = "instance-a"};
  EXPECT_EQ(harness_.join(newcomer).error, GroupError::kNone);
}

}  // namespace
}  // namespace kgroups::broker
