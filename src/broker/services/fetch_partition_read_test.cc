// SPDX-License-Identifier: Apache-2.0
#include "broker/services/fetch_partition_read.h"

#include <gtest/gtest.h>

#include <vector>

#include "broker/storage/transaction_batches_for_tests.h"
#include "protocol/record_batch.h"

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;
using protocol::FetchResponse;
using testing::append_batch;
using testing::append_marker;
using testing::append_transactional;
using testing::plain_batch;

constexpr FetchReadLimits kRoomy{.response_bytes = 1 << 20, .memory_bytes = 1 << 20};

struct Read {
  FetchResponse::Partition partition;
  FetchReadTotals totals;
};

Read read(const BatchLog& log, std::int64_t offset, IsolationLevel isolation,
          FetchReadLimits limits = kRoomy, std::int32_t partition_max_bytes = 1 << 20) {
  Read out;
  read_fetch_partition(
      log, FetchPartitionParams{.fetch_offset = offset, .partition_max_bytes = partition_max_bytes},
      isolation, limits, out.totals, out.partition);
  return out;
}

// The base offsets of the batches a read sent.
std::vector<std::int64_t> sent_batches(const FetchResponse::Partition& partition) {
  std::vector<std::int64_t> bases;
  for (const protocol::ByteView batch : partition.records) {
    bases.push_back(protocol::parse_record_batch_header(batch)->base_offset);
  }
  return bases;
}

using Aborted = std::vector<FetchResponse::AbortedTransaction>;

TEST(FetchPartitionRead, WithoutTransactionsBothLevelsReadToTheHighWatermark) {
  BatchLog log;
  append_batch(log, plain_batch({"a", "b"}));
  append_batch(log, plain_batch({"c"}));
  for (const IsolationLevel isolation :
       {IsolationLevel::kReadUncommitted, IsolationLevel::kReadCommitted}) {
    const Read got = read(log, 0, isolation);
    EXPECT_EQ(got.partition.error_code, ErrorCode::kNone);
    EXPECT_EQ(sent_batches(got.partition), (std::vector<std::int64_t>{0, 2}));
    EXPECT_EQ(got.partition.high_watermark, 3);
    EXPECT_EQ(got.partition.last_stable_offset, 3);
    EXPECT_EQ(got.totals.record_bytes, log.size_bytes());
  }
  // Null for read_uncommitted, an empty list for read_committed (as Kafka answers).
  EXPECT_FALSE(read(log, 0, IsolationLevel::kReadUncommitted).partition.aborted_transactions);
  EXPECT_EQ(read(log, 0, IsolationLevel::kReadCommitted).partition.aborted_transactions, Aborted{});
}

TEST(FetchPartitionRead, ReadCommittedStopsAtAnOpenTransaction) {
  BatchLog log;
  append_batch(log, plain_batch({"before"}));          // 0
  append_transactional(log, 7, {"open-1", "open-2"});  // 1-2
  append_batch(log, plain_batch({"after"}));           // 3
  ASSERT_EQ(log.last_stable_offset(), 1);

  const Read committed = read(log, 0, IsolationLevel::kReadCommitted);
  EXPECT_EQ(sent_batches(committed.partition), (std::vector<std::int64_t>{0}));
  EXPECT_EQ(committed.partition.last_stable_offset, 1);
  EXPECT_EQ(committed.partition.high_watermark, 4);
  EXPECT_EQ(committed.totals.record_bytes, log.batches_from(0).front().size_bytes);

  // Read uncommitted sees the open transaction and what follows it.
  const Read uncommitted = read(log, 0, IsolationLevel::kReadUncommitted);
  EXPECT_EQ(sent_batches(uncommitted.partition), (std::vector<std::int64_t>{0, 1, 3}));
  EXPECT_EQ(uncommitted.partition.last_stable_offset, 1);

  // From the last stable offset (or past it, below the high watermark): nothing, no error.
  for (const std::int64_t offset : {1, 3, 4}) {
    const Read at = read(log, offset, IsolationLevel::kReadCommitted);
    EXPECT_EQ(at.partition.error_code, ErrorCode::kNone) << offset;
    EXPECT_TRUE(at.partition.records.empty()) << offset;
    EXPECT_EQ(at.totals.record_bytes, 0U) << offset;
  }
}

TEST(FetchPartitionRead, ACommitMakesTheTransactionReadableWithItsMarker) {
  BatchLog log;
  append_transactional(log, 7, {"x"});        // 0
  append_transactional(log, 7, {"y"});        // 1
  append_marker(log, 7, /*committed=*/true);  // 2
  const Read got = read(log, 0, IsolationLevel::kReadCommitted);
  EXPECT_EQ(sent_batches(got.partition), (std::vector<std::int64_t>{0, 1, 2}));
  EXPECT_EQ(got.partition.last_stable_offset, 3);
  EXPECT_EQ(got.partition.aborted_transactions, Aborted{});
}

TEST(FetchPartitionRead, AnAbortedTransactionIsListedForReadCommittedOnly) {
  BatchLog log;
  append_transactional(log, 7, {"doomed"});    // 0
  append_marker(log, 7, /*committed=*/false);  // 1
  append_batch(log, plain_batch({"plain"}));   // 2

  const Read committed = read(log, 0, IsolationLevel::kReadCommitted);
  EXPECT_EQ(sent_batches(committed.partition), (std::vector<std::int64_t>{0, 1, 2}));
  EXPECT_EQ(committed.partition.aborted_transactions,
            (Aborted{{.producer_id = 7, .first_offset = 0}}));
  // Past the abort marker the transaction no longer overlaps what is read.
  EXPECT_EQ(read(log, 2, IsolationLevel::kReadCommitted).partition.aborted_transactions, Aborted{});
  EXPECT_FALSE(read(log, 0, IsolationLevel::kReadUncommitted).partition.aborted_transactions);
}

TEST(FetchPartitionRead, AbortedTransactionsAreThoseOverlappingTheBatchesSent) {
  BatchLog log;
  append_transactional(log, 1, {"p1"});                  // 0
  append_transactional(log, 2, {"p2"});                  // 1
  append_marker(log, 1, /*committed=*/false);            // 2: aborts [0, 2]
  append_marker(log, 2, /*committed=*/true);             // 3
  append_batch(log, plain_batch({"a", "b", "c", "d"}));  // 4-7
  append_transactional(log, 3, {"p3"});                  // 8
  append_marker(log, 3, /*committed=*/false);            // 9: aborts [8, 9]
  ASSERT_EQ(log.last_stable_offset(), 10);

  // Limited to the first batch: only producer 1's abort overlaps [0, 1).
  const std::size_t first_bytes = log.batches_from(0).front().size_bytes;
  const Read first = read(log, 0, IsolationLevel::kReadCommitted,
                          {.response_bytes = first_bytes, .memory_bytes = 1 << 20});
  EXPECT_EQ(sent_batches(first.partition), (std::vector<std::int64_t>{0}));
  EXPECT_EQ(first.partition.aborted_transactions, (Aborted{{1, 0}}));

  const Read all = read(log, 0, IsolationLevel::kReadCommitted);
  EXPECT_EQ(all.partition.aborted_transactions, (Aborted{{1, 0}, {3, 8}}));
  // From offset 3 (producer 1's marker is below): producer 3's only.
  EXPECT_EQ(read(log, 3, IsolationLevel::kReadCommitted).partition.aborted_transactions,
            (Aborted{{3, 8}}));
  // From inside the plain batch, limited to it: none.
  const std::size_t plain_bytes = log.batches_from(5).front().size_bytes;
  const Read middle = read(log, 5, IsolationLevel::kReadCommitted,
                           {.response_bytes = plain_bytes, .memory_bytes = 1 << 20});
  EXPECT_EQ(sent_batches(middle.partition), (std::vector<std::int64_t>{4}));
  EXPECT_EQ(middle.partition.aborted_transactions, Aborted{});
}

TEST(FetchPartitionRead, InterleavedProducersReadCommittedUpToTheOldestOpen) {
  BatchLog log;
  append_transactional(log, 1, {"p1-a"});      // 0
  append_transactional(log, 2, {"p2-a"});      // 1
  append_marker(log, 2, /*committed=*/false);  // 2
  EXPECT_EQ(sent_batches(read(log, 0, IsolationLevel::kReadCommitted).partition),
            std::vector<std::int64_t>{});
  append_marker(log, 1, /*committed=*/true);  // 3
  const Read got = read(log, 0, IsolationLevel::kReadCommitted);
  EXPECT_EQ(sent_batches(got.partition), (std::vector<std::int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(got.partition.aborted_transactions, (Aborted{{2, 1}}));
}

TEST(FetchPartitionRead, AnOpenTransactionBelowTheLogStartHoldsReadCommittedAtTheStart) {
  BatchLog log;
  log.set_segment_limit(BatchLog::kMinSegmentBytes);
  const std::string big(900, 'v');        // one batch per segment
  append_transactional(log, 7, {big});    // 0
  append_batch(log, plain_batch({big}));  // 1
  log.evict_oldest_segment();
  ASSERT_EQ(log.log_start_offset(), 1);
  const Read got = read(log, 1, IsolationLevel::kReadCommitted);
  EXPECT_EQ(got.partition.error_code, ErrorCode::kNone);
  EXPECT_EQ(got.partition.last_stable_offset, 1);
  EXPECT_TRUE(got.partition.records.empty());
  EXPECT_EQ(sent_batches(read(log, 1, IsolationLevel::kReadUncommitted).partition),
            (std::vector<std::int64_t>{1}));
}

TEST(FetchPartitionRead, AnOffsetOutsideTheLogIsOutOfRangeWithNoAbortedList) {
  BatchLog log;
  append_batch(log, plain_batch({"a"}));
  const Read got = read(log, 5, IsolationLevel::kReadCommitted);
  EXPECT_EQ(got.partition.error_code, ErrorCode::kOffsetOutOfRange);
  EXPECT_TRUE(got.totals.has_error);
  EXPECT_FALSE(got.partition.aborted_transactions);
}

TEST(FetchPartitionRead, TheFirstBatchOfTheResponseIsSentEvenIfLargerThanTheLimits) {
  BatchLog log;
  append_transactional(log, 7, {"a-much-longer-value-than-the-limit"});
  append_marker(log, 7, /*committed=*/false);
  const Read got =
      read(log, 0, IsolationLevel::kReadCommitted, {.response_bytes = 10, .memory_bytes = 1 << 20});
  EXPECT_EQ(sent_batches(got.partition), (std::vector<std::int64_t>{0}));
  EXPECT_EQ(got.partition.aborted_transactions, (Aborted{{7, 0}}));
}

}  // namespace
}  // namespace kgroups::broker
