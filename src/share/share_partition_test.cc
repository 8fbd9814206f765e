// SPDX-License-Identifier: Apache-2.0
#include "share/share_partition.h"

#include <gtest/gtest.h>

#include <vector>

namespace kgroups::share {
namespace {

constexpr MemberIndex kAlice = 0;
constexpr MemberIndex kBob = 1;

struct Fixture {
  ShareLimits limits;
  SharePartition partition{0};
  std::vector<AcquiredRange> acquire(MemberIndex member, std::int64_t log_end, int max,
                                     std::int64_t now = 0) {
    std::vector<AcquiredRange> out;
    partition.acquire(member, log_end, max, now, limits, out);
    return out;
  }
  AcknowledgeRefusal ack(MemberIndex member, std::int64_t offset, AcknowledgeType type) {
    const Acknowledgement one{offset, type};
    return partition.acknowledge(member, std::span(&one, 1), limits);
  }
};

TEST(SharePartition, AcquiresNewRecordsInOffsetOrderWithDeliveryCountOne) {
  Fixture f;
  EXPECT_EQ(f.acquire(kAlice, 10, 4), (std::vector<AcquiredRange>{{0, 3, 1}}));
  EXPECT_EQ(f.acquire(kBob, 10, 100), (std::vector<AcquiredRange>{{4, 9, 1}}));
  EXPECT_TRUE(f.acquire(kAlice, 10, 100).empty());
  EXPECT_EQ(f.partition.in_flight().acquired, 10);
}

TEST(SharePartition, AcceptMovesTheStartOffsetPastLeadingDoneRecords) {
  Fixture f;
  f.acquire(kAlice, 5, 5);
  EXPECT_EQ(f.ack(kAlice, 1, AcknowledgeType::kAccept), AcknowledgeRefusal::kNone);
  EXPECT_EQ(f.partition.start_offset(), 0);  // offset 0 is still acquired
  EXPECT_EQ(f.ack(kAlice, 0, AcknowledgeType::kReject), AcknowledgeRefusal::kNone);
  EXPECT_EQ(f.partition.start_offset(), 2);
  EXPECT_EQ(f.partition.end_offset(), 5);
}

TEST(SharePartition, ReleaseRedeliversWithAHigherDeliveryCountBeforeNewRecords) {
  Fixture f;
  f.acquire(kAlice, 3, 3);
  EXPECT_EQ(f.ack(kAlice, 1, AcknowledgeType::kRelease), AcknowledgeRefusal::kNone);
  EXPECT_EQ(f.acquire(kBob, 5, 10), (std::vector<AcquiredRange>{{1, 1, 2}, {3, 4, 1}}));
  EXPECT_EQ(f.partition.totals().redeliveries, 1);
}

TEST(SharePartition, TheNextAcquirableOffsetIsTheOldestAvailableRecord) {
  Fixture f;
  EXPECT_EQ(f.partition.next_acquirable_offset(), 0);
  f.acquire(kAlice, 4, 4);
  EXPECT_EQ(f.partition.next_acquirable_offset(), 4);
  f.ack(kAlice, 2, AcknowledgeType::kRelease);
  EXPECT_EQ(f.partition.next_acquirable_offset(), 2);
}

TEST(SharePartition, RejectNeverRedelivers) {
  Fixture f;
  f.acquire(kAlice, 1, 1);
  f.ack(kAlice, 0, AcknowledgeType::kReject);
  EXPECT_TRUE(f.acquire(kBob, 1, 10).empty());
  EXPECT_EQ(f.partition.start_offset(), 1);
}

TEST(SharePartition, AcknowledgingARecordNotHeldChangesNothing) {
  Fixture f;
  f.acquire(kAlice, 2, 1);  // Alice holds 0; 1 was never acquired
  const std::vector<Acknowledgement> acks{{0, AcknowledgeType::kAccept},
                                          {1, AcknowledgeType::kAccept}};
  EXPECT_EQ(f.partition.acknowledge(kAlice, acks, f.limits),
            AcknowledgeRefusal::kNotAcquiredByMember);
  EXPECT_TRUE(f.partition.held_by(kAlice, 0));
  EXPECT_EQ(f.ack(kBob, 0, AcknowledgeType::kAccept), AcknowledgeRefusal::kNotAcquiredByMember);
  EXPECT_EQ(f.ack(kAlice, 7, AcknowledgeType::kAccept), AcknowledgeRefusal::kNotAcquiredByMember);
  EXPECT_EQ(f.partition.start_offset(), 0);
  EXPECT_EQ(f.partition.totals().accepted, 0);
}

TEST(SharePartition, AnExpiredLockMakesTheRecordAvailableAgain) {
  Fixture f;
  f.acquire(kAlice, 2, 2, /*now=*/1'000);
  EXPECT_EQ(f.partition.next_lock_deadline(), 31'000);
  EXPECT_EQ(f.partition.expire_locks(30'999, f.limits), 0);
  EXPECT_EQ(f.partition.expire_locks(31'000, f.limits), 2);
  EXPECT_FALSE(f.partition.held_by(kAlice, 0));
  EXPECT_EQ(f.ack(kAlice, 0, AcknowledgeType::kAccept), AcknowledgeRefusal::kNotAcquiredByMember);
  EXPECT_EQ(f.acquire(kBob, 2, 10), (std::vector<AcquiredRange>{{0, 1, 2}}));
}

TEST(SharePartition, TheEarliestLockDeadlineFollowsAcquisitionsAndAcknowledgements) {
  Fixture f;
  EXPECT_EQ(f.partition.next_lock_deadline(), std::nullopt);
  f.acquire(kAlice, 1, 1, /*now=*/1'000);  // 0 until 31'000
  f.acquire(kBob, 2, 1, /*now=*/2'000);    // 1 until 32'000
  f.acquire(kAlice, 3, 1, /*now=*/3'000);  // 2 until 33'000
  EXPECT_EQ(f.partition.next_lock_deadline(), 31'000);
  f.ack(kBob, 1, AcknowledgeType::kAccept);  // not the earliest: unchanged
  EXPECT_EQ(f.partition.next_lock_deadline(), 31'000);
  f.ack(kAlice, 0, AcknowledgeType::kRelease);  // the earliest goes: the next one
  EXPECT_EQ(f.partition.next_lock_deadline(), 33'000);
  EXPECT_EQ(f.acquire(kBob, 3, 1, /*now=*/500), (std::vector<AcquiredRange>{{0, 0, 2}}));
  EXPECT_EQ(f.partition.next_lock_deadline(), 30'500);  // a redelivery with an earlier lock
  f.ack(kAlice, 2, AcknowledgeType::kReject);
  f.ack(kBob, 0, AcknowledgeType::kAccept);
  EXPECT_EQ(f.partition.next_lock_deadline(), std::nullopt);
  f.acquire(kAlice, 4, 1, /*now=*/9'000);
  EXPECT_EQ(f.partition.next_lock_deadline(), 39'000);
  f.partition.advance_log_start(4);  // the acquired record 3 is gone from the log
  EXPECT_EQ(f.partition.next_lock_deadline(), std::nullopt);
}

TEST(SharePartition, TheDeliveryCountLimitArchivesARecordReleasedAtIt) {
  Fixture f;
  f.limits.delivery_count_limit = 3;
  for (int delivery = 1; delivery <= 3; ++delivery) {
    EXPECT_EQ(f.acquire(kAlice, 1, 1), (std::vector<AcquiredRange>{{0, 0, delivery}}));
    f.ack(kAlice, 0, AcknowledgeType::kRelease);
  }
  EXPECT_TRUE(f.acquire(kAlice, 1, 1).empty());
  EXPECT_EQ(f.partition.start_offset(), 1);
  EXPECT_EQ(f.partition.totals().archived_by_limit, 1);
}

TEST(SharePartition, AMemberLeavingReleasesOnlyItsRecords) {
  Fixture f;
  f.acquire(kAlice, 2, 1);
  f.acquire(kBob, 2, 1);
  f.partition.release_member(kAlice, f.limits);
  EXPECT_FALSE(f.partition.held_by(kAlice, 0));
  EXPECT_TRUE(f.partition.held_by(kBob, 1));
  EXPECT_EQ(f.acquire(kBob, 2, 5), (std::vector<AcquiredRange>{{0, 0, 2}}));
}

TEST(SharePartition, TheRecordLockLimitBoundsTheWindow) {
  Fixture f;
  f.limits.partition_max_record_locks = 100;
  EXPECT_EQ(f.acquire(kAlice, 1'000, 1'000), (std::vector<AcquiredRange>{{0, 99, 1}}));
  EXPECT_TRUE(f.acquire(kBob, 1'000, 1'000).empty());
  f.ack(kAlice, 0, AcknowledgeType::kAccept);
  EXPECT_EQ(f.acquire(kBob, 1'000, 1'000), (std::vector<AcquiredRange>{{100, 100, 1}}));
  EXPECT_EQ(f.partition.state_bytes(), 100 * sizeof(SharePartition::InFlightRecord));
}

TEST(SharePartition, TheLogStartMovingDropsRecordsBelowIt) {
  Fixture f;
  f.acquire(kAlice, 5, 5);
  f.partition.advance_log_start(3);
  EXPECT_EQ(f.partition.start_offset(), 3);
  EXPECT_EQ(f.partition.in_flight().acquired, 2);
  f.partition.advance_log_start(9);
  EXPECT_EQ(f.partition.start_offset(), 9);
  EXPECT_EQ(f.partition.end_offset(), 9);
  EXPECT_EQ(f.acquire(kBob, 10, 5), (std::vector<AcquiredRange>{{9, 9, 1}}));
}

TEST(SharePartition, ResetStartsOverWithNothingInFlight) {
  Fixture f;
  f.acquire(kAlice, 5, 5);
  f.partition.reset(2);
  EXPECT_EQ(f.partition.start_offset(), 2);
  EXPECT_EQ(f.partition.in_flight().acquired, 0);
  EXPECT_EQ(f.acquire(kBob, 5, 5), (std::vector<AcquiredRange>{{2, 4, 1}}));
}

}  // namespace
}  // namespace kgroups::share
