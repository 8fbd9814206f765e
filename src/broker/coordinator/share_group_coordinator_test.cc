// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/share_group_coordinator.h"

#include <gtest/gtest.h>

#include <chrono>
#include <vector>

#include "broker/coordinator/in_memory_topic_catalog.h"

namespace kgroups::broker {
namespace {

using share::AcknowledgeType;
using share::AcquiredRange;

struct ShareCoordinatorFixture : ::testing::Test {
  ManualClock clock;
  InMemoryTopicCatalog catalog;
  TopicId orders = catalog.create_topic("orders", 1);
  std::int64_t log_end = 0;
  ShareGroupCoordinator coordinator{
      ShareGroupConfig{}, clock, catalog, [this](const TopicId&, std::int32_t) {
        return std::optional(std::pair<std::int64_t, std::int64_t>(0, log_end));
      }};

  ShareGroupHeartbeatResult heartbeat(const std::string& member, std::int32_t epoch) {
    ShareGroupHeartbeatParams params;
    params.group_id = "workers";
    params.member_id = member;
    params.member_epoch = epoch;
    if (epoch == 0) params.subscribed_topic_names = std::vector<std::string>{"orders"};
    return coordinator.heartbeat(params);
  }
  std::vector<AcquiredRange> acquire(const std::string& member, int max) {
    std::vector<AcquiredRange> out;
    coordinator.acquire("workers", member, orders, 0, log_end, max, out);
    return out;
  }
};

TEST_F(ShareCoordinatorFixture, TwoMembersShareOnePartitionAndNeverGetTheSameRecord) {
  const auto a = heartbeat("a", 0);
  const auto b = heartbeat("b", 0);
  ASSERT_EQ(a.error, GroupError::kNone);
  ASSERT_TRUE(b.assignment.has_value());
  EXPECT_EQ(b.assignment->at(0).partitions, std::vector<std::int32_t>{0});
  // 'a' learns the new epoch and keeps partition 0.
  const auto a2 = heartbeat("a", a.member_epoch);
  EXPECT_EQ(a2.member_epoch, 2);
  log_end = 10;
  EXPECT_EQ(acquire("a", 6), (std::vector<AcquiredRange>{{0, 5, 1}}));
  EXPECT_EQ(acquire("b", 6), (std::vector<AcquiredRange>{{6, 9, 1}}));
}

TEST_F(ShareCoordinatorFixture, TheShareGroupStartsAtTheLogEndByDefault) {
  log_end = 5;
  heartbeat("a", 0);
  log_end = 7;
  EXPECT_EQ(acquire("a", 100), (std::vector<AcquiredRange>{{5, 6, 1}}));
}

TEST_F(ShareCoordinatorFixture, ALeavingMembersRecordsGoToTheOthers) {
  const auto a = heartbeat("a", 0);
  heartbeat("b", 0);
  log_end = 3;
  acquire("a", 3);
  heartbeat("a", -1);
  EXPECT_EQ(acquire("b", 10), (std::vector<AcquiredRange>{{0, 2, 2}}));
  EXPECT_EQ(heartbeat("a", a.member_epoch).error, GroupError::kUnknownMemberId);
}

TEST_F(ShareCoordinatorFixture, ASessionTimeoutRemovesTheMemberAndReleasesItsRecords) {
  ShareGroupSettings long_locks;
  long_locks.limits.record_lock_duration_ms = 600'000;  // the session ends first
  coordinator.set_group_settings("workers", long_locks);
  heartbeat("a", 0);
  const auto b = heartbeat("b", 0);
  log_end = 2;
  acquire("a", 2);
  clock.advance(std::chrono::milliseconds(40'000));
  EXPECT_EQ(heartbeat("b", b.member_epoch).error, GroupError::kNone);  // keeps b alive
  clock.advance(std::chrono::milliseconds(6'000));
  coordinator.poll_timers();
  EXPECT_EQ(coordinator.check_member("workers", "a"), GroupError::kUnknownMemberId);
  EXPECT_EQ(acquire("b", 10), (std::vector<AcquiredRange>{{0, 1, 2}}));
}

TEST_F(ShareCoordinatorFixture, AnExpiredLockReleasesTheRecord) {
  heartbeat("a", 0);
  log_end = 1;
  acquire("a", 1);
  clock.advance(std::chrono::milliseconds(30'000));
  EXPECT_EQ(coordinator.next_deadline(), clock.now());
  coordinator.poll_timers();
  EXPECT_EQ(acquire("a", 1), (std::vector<AcquiredRange>{{0, 0, 2}}));
}

TEST_F(ShareCoordinatorFixture, AWrongEpochIsFencedAndChangesNothing) {
  const auto a = heartbeat("a", 0);
  EXPECT_EQ(heartbeat("a", a.member_epoch + 5).error, GroupError::kFencedMemberEpoch);
  EXPECT_EQ(heartbeat("z", 3).error, GroupError::kUnknownMemberId);
  EXPECT_EQ(coordinator.describe_group("workers").members.size(), 1U);
}

TEST_F(ShareCoordinatorFixture, AcknowledgementsOfRecordsNotHeldAreRefused) {
  heartbeat("a", 0);
  heartbeat("b", 0);
  log_end = 2;
  acquire("a", 1);
  const share::Acknowledgement ack{0, AcknowledgeType::kAccept};
  EXPECT_EQ(coordinator.acknowledge("workers", "b", orders, 0, std::span(&ack, 1)),
            share::AcknowledgeRefusal::kNotAcquiredByMember);
  EXPECT_EQ(coordinator.acknowledge("workers", "a", orders, 0, std::span(&ack, 1)),
            share::AcknowledgeRefusal::kNone);
  const ShareGroupDescription described = coordinator.describe_group("workers");
  ASSERT_EQ(described.partitions.size(), 1U);
  EXPECT_EQ(described.partitions[0].start_offset, 1);
  EXPECT_EQ(described.partitions[0].totals.accepted, 1);
}

TEST_F(ShareCoordinatorFixture, TheMemoryBoundRefusesANewMember) {
  coordinator.set_max_stored_bytes(1);
  EXPECT_EQ(heartbeat("a", 0).error, GroupError::kCoordinatorLoadInProgress);
  EXPECT_FALSE(coordinator.has_group("workers"));
}

}  // namespace
}  // namespace kgroups::broker
