// SPDX-License-Identifier: Apache-2.0
#include "broker/storage/partition_transactions.h"

#include <gtest/gtest.h>

#include <vector>

namespace kgroups::broker {
namespace {

std::vector<AbortedTransaction> aborted_in(const PartitionTransactions& transactions,
                                           std::int64_t from, std::int64_t to) {
  std::vector<AbortedTransaction> out;
  transactions.collect_aborted(from, to, out);
  return out;
}

TEST(PartitionTransactions, WithoutTransactionsTheLastStableOffsetIsTheHighWatermark) {
  const PartitionTransactions transactions;
  EXPECT_TRUE(transactions.empty());
  EXPECT_EQ(transactions.last_stable_offset(0), 0);
  EXPECT_EQ(transactions.last_stable_offset(42), 42);
}

TEST(PartitionTransactions, AnOpenTransactionHoldsTheLastStableOffsetAtItsFirstOffset) {
  PartitionTransactions transactions;
  transactions.on_transactional_append(7, 10);
  transactions.on_transactional_append(7, 15);  // same transaction: first offset stays
  EXPECT_FALSE(transactions.empty());
  EXPECT_EQ(transactions.open_count(), 1U);
  EXPECT_EQ(transactions.open_transaction_first_offset(7), 10);
  EXPECT_EQ(transactions.last_stable_offset(20), 10);
  EXPECT_EQ(transactions.open_transaction_first_offset(8), -1);
}

TEST(PartitionTransactions, ACommitReleasesTheLastStableOffsetAndIsNotRemembered) {
  PartitionTransactions transactions;
  transactions.on_transactional_append(7, 10);
  transactions.on_marker(7, 12, /*committed=*/true);
  EXPECT_EQ(transactions.open_count(), 0U);
  EXPECT_EQ(transactions.last_stable_offset(13), 13);
  EXPECT_EQ(transactions.aborted_count(), 0U);
  EXPECT_TRUE(transactions.empty());
}

TEST(PartitionTransactions, AnAbortIsRememberedFromItsFirstOffsetToItsMarker) {
  PartitionTransactions transactions;
  transactions.on_transactional_append(7, 10);
  transactions.on_transactional_append(7, 11);
  transactions.on_marker(7, 12, /*committed=*/false);
  EXPECT_EQ(transactions.last_stable_offset(13), 13);
  ASSERT_EQ(transactions.aborted_count(), 1U);
  EXPECT_EQ(
      aborted_in(transactions, 0, 13),
      (std::vector<AbortedTransaction>{{.producer_id = 7, .first_offset = 10, .last_offset = 12}}));
}

TEST(PartitionTransactions, AnAbortWithoutDataCoversOnlyItsMarker) {
  PartitionTransactions transactions;
  transactions.on_marker(7, 5, /*committed=*/false);
  EXPECT_EQ(
      aborted_in(transactions, 0, 6),
      (std::vector<AbortedTransaction>{{.producer_id = 7, .first_offset = 5, .last_offset = 5}}));
  transactions.on_marker(8, 6, /*committed=*/true);
  EXPECT_EQ(transactions.aborted_count(), 1U);
}

TEST(PartitionTransactions, TheNextTransactionOfAProducerOpensAfterItsMarker) {
  PartitionTransactions transactions;
  transactions.on_transactional_append(7, 0);
  transactions.on_marker(7, 1, /*committed=*/false);
  transactions.on_transactional_append(7, 2);
  EXPECT_EQ(transactions.open_transaction_first_offset(7), 2);
  EXPECT_EQ(transactions.last_stable_offset(3), 2);
  transactions.on_marker(7, 3, /*committed=*/false);
  EXPECT_EQ(aborted_in(transactions, 0, 4),
            (std::vector<AbortedTransaction>{{7, 0, 1}, {7, 2, 3}}));
}

TEST(PartitionTransactions, InterleavedProducersHoldTheLastStableOffsetAtTheOldestOpen) {
  PartitionTransactions transactions;
  transactions.on_transactional_append(1, 0);
  transactions.on_transactional_append(2, 1);
  transactions.on_transactional_append(3, 2);
  transactions.on_transactional_append(1, 3);
  EXPECT_EQ(transactions.last_stable_offset(4), 0);
  transactions.on_marker(2, 4, /*committed=*/false);  // not the oldest: LSO stays
  EXPECT_EQ(transactions.last_stable_offset(5), 0);
  transactions.on_marker(1, 5, /*committed=*/true);  // the oldest: LSO moves to producer 3's
  EXPECT_EQ(transactions.last_stable_offset(6), 2);
  transactions.on_transactional_append(1, 6);
  transactions.on_marker(3, 7, /*committed=*/false);
  EXPECT_EQ(transactions.last_stable_offset(8), 6);
  transactions.on_marker(1, 8, /*committed=*/false);
  EXPECT_EQ(transactions.last_stable_offset(9), 9);
  EXPECT_EQ(aborted_in(transactions, 0, 9),
            (std::vector<AbortedTransaction>{{2, 1, 4}, {3, 2, 7}, {1, 6, 8}}));
}

TEST(PartitionTransactions, AbortedRangesAreThoseOverlappingTheAskedOffsets) {
  PartitionTransactions transactions;
  // Producer 1 aborts [0, 3], producer 2 aborts [2, 10], producer 3 aborts [11, 12].
  transactions.on_transactional_append(1, 0);
  transactions.on_transactional_append(2, 2);
  transactions.on_marker(1, 3, /*committed=*/false);
  transactions.on_marker(2, 10, /*committed=*/false);
  transactions.on_transactional_append(3, 11);
  transactions.on_marker(3, 12, /*committed=*/false);

  EXPECT_EQ(aborted_in(transactions, 0, 1), (std::vector<AbortedTransaction>{{1, 0, 3}}));
  EXPECT_EQ(aborted_in(transactions, 0, 3),
            (std::vector<AbortedTransaction>{{1, 0, 3}, {2, 2, 10}}));
  EXPECT_EQ(aborted_in(transactions, 4, 5), (std::vector<AbortedTransaction>{{2, 2, 10}}));
  EXPECT_EQ(aborted_in(transactions, 10, 11), (std::vector<AbortedTransaction>{{2, 2, 10}}));
  EXPECT_EQ(aborted_in(transactions, 11, 100), (std::vector<AbortedTransaction>{{3, 11, 12}}));
  EXPECT_TRUE(aborted_in(transactions, 13, 100).empty());
  EXPECT_TRUE(aborted_in(transactions, 5, 5).empty());  // an empty range overlaps nothing
}

TEST(PartitionTransactions, ALongAbortedTransactionIsFoundPastShortOnes) {
  PartitionTransactions transactions;
  transactions.on_transactional_append(1, 0);  // long: [0, 100]
  for (std::int64_t offset = 1; offset < 99; offset += 2) {
    transactions.on_transactional_append(2, offset);
    transactions.on_marker(2, offset + 1, /*committed=*/false);
  }
  transactions.on_marker(1, 100, /*committed=*/false);
  const auto found = aborted_in(transactions, 0, 1);
  ASSERT_EQ(found.size(), 1U);
  EXPECT_EQ(found[0], (AbortedTransaction{1, 0, 100}));
  const auto later = aborted_in(transactions, 50, 52);
  EXPECT_EQ(later, (std::vector<AbortedTransaction>{{2, 49, 50}, {2, 51, 52}, {1, 0, 100}}));
}

TEST(PartitionTransactions, AMovedLogStartForgetsAbortsWhollyBelowIt) {
  PartitionTransactions transactions;
  transactions.on_transactional_append(1, 0);
  transactions.on_marker(1, 1, /*committed=*/false);  // [0, 1]
  transactions.on_transactional_append(2, 2);
  transactions.on_marker(2, 5, /*committed=*/false);  // [2, 5]
  transactions.on_log_start_moved(2);
  EXPECT_EQ(aborted_in(transactions, 0, 10), (std::vector<AbortedTransaction>{{2, 2, 5}}));
  transactions.on_log_start_moved(5);  // the marker is still held: kept
  EXPECT_EQ(transactions.aborted_count(), 1U);
  const std::size_t memory_before = transactions.memory_bytes();
  transactions.on_log_start_moved(6);
  EXPECT_EQ(transactions.aborted_count(), 0U);
  EXPECT_TRUE(transactions.empty());
  EXPECT_LE(transactions.memory_bytes() + 2 * sizeof(AbortedTransaction), memory_before);
}

TEST(PartitionTransactions, AnOpenTransactionBelowTheLogStartBoundsTheLastStableOffsetThere) {
  PartitionTransactions transactions;
  transactions.on_transactional_append(1, 3);
  transactions.on_log_start_moved(10);
  EXPECT_EQ(transactions.open_transaction_first_offset(1), 10);
  EXPECT_EQ(transactions.last_stable_offset(20), 10);
  transactions.on_marker(1, 20, /*committed=*/false);
  EXPECT_EQ(aborted_in(transactions, 10, 21), (std::vector<AbortedTransaction>{{1, 10, 20}}));
  EXPECT_EQ(transactions.last_stable_offset(21), 21);
}

TEST(PartitionTransactions, ForgottenAbortsGiveTheirMemoryBack) {
  PartitionTransactions transactions;
  for (std::int64_t offset = 0; offset < 2000; offset += 2) {
    transactions.on_transactional_append(offset, offset);
    transactions.on_marker(offset, offset + 1, /*committed=*/false);
  }
  const std::size_t full = transactions.memory_bytes();
  EXPECT_GE(full, 1000 * sizeof(AbortedTransaction));
  transactions.on_log_start_moved(1900);
  EXPECT_EQ(transactions.aborted_count(), 50U);
  EXPECT_LT(transactions.memory_bytes(), full / 4);
  EXPECT_EQ(aborted_in(transactions, 1900, 1902),
            (std::vector<AbortedTransaction>{{1900, 1900, 1901}}));
}

TEST(PartitionTransactions, CollectAppendsToTheCallersBuffer) {
  PartitionTransactions transactions;
  transactions.on_marker(1, 0, /*committed=*/false);
  std::vector<AbortedTransaction> buffer{{9, 9, 9}};
  EXPECT_EQ(transactions.collect_aborted(0, 1, buffer), 1U);
  EXPECT_EQ(buffer, (std::vector<AbortedTransaction>{{9, 9, 9}, {1, 0, 0}}));
}

}  // namespace
}  // namespace kgroups::broker
