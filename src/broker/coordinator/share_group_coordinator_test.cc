// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/share_group_coordinator.h"

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <random>
#include <string>
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

// stored_bytes() is a running total kept by each call; after any sequence of calls it equals
// a full recount, so the memory budget neither leaks nor forgets a share-partition's records.
TEST_F(ShareCoordinatorFixture, TheStoredBytesTotalFollowsEveryKindOfChange) {
  std::mt19937 random(29);
  const std::vector<std::string> members{"a", "b", "c"};
  std::map<std::string, std::vector<AcquiredRange>> held;  // may have expired or gone since
  int acknowledged = 0;
  for (int step = 0; step < 3'000; ++step) {
    const std::string& member = members[random() % members.size()];
    switch (random() % 9) {
      case 0:
        heartbeat(member, 0);
        break;
      case 1:
        heartbeat(member, -1);
        break;
      case 2:
        log_end += static_cast<std::int64_t>(random() % 50);
        for (const AcquiredRange& range : acquire(member, static_cast<int>(1 + random() % 40))) {
          held[member].push_back(range);
        }
        break;
      case 3:
      case 4: {
        if (held[member].empty()) break;
        const AcquiredRange range = held[member].front();
        held[member].erase(held[member].begin());
        std::vector<share::Acknowledgement> acks;
        const auto type = static_cast<AcknowledgeType>(1 + random() % 3);
        for (std::int64_t o = range.first_offset; o <= range.last_offset; ++o) {
          acks.push_back({o, type});
        }
        acknowledged += coordinator.acknowledge("workers", member, orders, 0, acks) ==
                        share::AcknowledgeRefusal::kNone;
        break;
      }
      case 5:
        clock.advance(std::chrono::milliseconds(random() % 20'000));
        coordinator.poll_timers();
        break;
      case 6:
        coordinator.release_member_records("workers", member);
        break;
      case 7:
        coordinator.start_acquiring("workers", orders, 0, log_end - 5);
        break;
      default:
        coordinator.alter_start_offset("workers", orders, 0, log_end);
        coordinator.delete_topic_state("workers", orders);
        break;
    }
    ASSERT_EQ(coordinator.stored_bytes(), coordinator.recount_stored_bytes()) << "step " << step;
  }
  EXPECT_GT(acknowledged, 20);  // 32 with this seed: many ranges expired or went first
  EXPECT_GT(coordinator.stored_bytes(), 0U);
  for (const std::string& member : members) heartbeat(member, -1);
  EXPECT_EQ(coordinator.delete_group("workers"), GroupError::kNone);
  EXPECT_EQ(coordinator.stored_bytes(), 0U);
}

}  // namespace
}  // namespace kgroups::broker

namespace kgroups::broker {
namespace {

// Writes each observation as one line.
struct RecordingObserver : GroupObserver {
  std::vector<std::string> lines;
  void on_member_joined(GroupType type, std::string_view group_id,
                        const ObservedMember& member) override {
    lines.push_back(std::string(group_type_name(type)) + " " + std::string(group_id) + " joined " +
                    std::string(member.member_id));
  }
  void on_member_left(GroupType type, std::string_view group_id, const ObservedMember& member,
                      std::string_view /*reason*/) override {
    lines.push_back(std::string(group_type_name(type)) + " " + std::string(group_id) + " left " +
                    std::string(member.member_id));
  }
  void on_member_expired(GroupType type, std::string_view group_id, const ObservedMember& member,
                         std::string_view /*reason*/) override {
    lines.push_back(std::string(group_type_name(type)) + " " + std::string(group_id) + " expired " +
                    std::string(member.member_id));
  }
  void on_records_released(const ObservedRelease& release) override {
    std::string line =
        "released " + std::string(release.reason) + " by '" + std::string(release.member_id) + "':";
    for (const ObservedReleasedPartition& partition : release.partitions) {
      line += " " + std::string(partition.topic) + "-" + std::to_string(partition.partition) + " " +
              std::to_string(partition.released) + "+" + std::to_string(partition.archived);
    }
    lines.push_back(line);
  }
};

TEST_F(ShareCoordinatorFixture, ReportsMembersAndTheRecordsTheirDeparturesAndLocksRelease) {
  RecordingObserver observer;
  coordinator.set_observer(&observer);
  const auto a = heartbeat("a", 0);
  heartbeat("b", 0);
  log_end = 4;
  acquire("a", 2);
  acquire("b", 2);
  heartbeat("a", -1);
  clock.advance(std::chrono::milliseconds(30'000));  // b's locks run out
  coordinator.poll_timers();
  clock.advance(std::chrono::milliseconds(20'000));  // b's session too
  coordinator.poll_timers();
  EXPECT_EQ(observer.lines, (std::vector<std::string>{
                                "share workers joined a",
                                "share workers joined b",
                                "share workers left a",
                                "released member_left by 'a': orders-0 2+0",
                                "released lock_expired by '': orders-0 2+0",
                                "share workers expired b",
                            }));
  EXPECT_EQ(a.error, GroupError::kNone);
}

TEST_F(ShareCoordinatorFixture, ARecordAtTheDeliveryLimitIsReportedArchived) {
  ShareGroupSettings settings = coordinator.settings_of("workers");
  settings.limits.delivery_count_limit = 2;
  coordinator.set_group_settings("workers", settings);
  RecordingObserver observer;
  coordinator.set_observer(&observer);
  heartbeat("a", 0);
  log_end = 1;
  acquire("a", 1);
  coordinator.release_member_records("workers", "a");
  acquire("a", 1);
  coordinator.release_member_records("workers", "a");
  EXPECT_EQ(observer.lines, (std::vector<std::string>{
                                "share workers joined a",
                                "released session_closed by 'a': orders-0 1+0",
                                "released session_closed by 'a': orders-0 0+1",
                            }));
}

}  // namespace
}  // namespace kgroups::broker
