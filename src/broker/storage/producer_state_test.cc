// SPDX-License-Identifier: Apache-2.0
#include "broker/storage/producer_state.h"

#include <gtest/gtest.h>

#include <limits>

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;

constexpr std::int64_t kProducer = 7;

TEST(ProducerStateTableTest, UnknownProducerMayStartAtAnySequence) {
  ProducerStateTable table;
  EXPECT_EQ(table.check(kProducer, 0, 0, 4).error, ErrorCode::kNone);
  EXPECT_EQ(table.check(kProducer, 0, 42, 50).error, ErrorCode::kNone);
  EXPECT_EQ(table.check(kProducer, 0, 0, 4).duplicate_base_offset, -1);
}

TEST(ProducerStateTableTest, NextSequenceIsAcceptedAndAGapIsOutOfOrder) {
  ProducerStateTable table;
  EXPECT_TRUE(table.record(kProducer, 0, 0, 4, 100));
  EXPECT_EQ(table.check(kProducer, 0, 5, 9).error, ErrorCode::kNone);
  EXPECT_EQ(table.check(kProducer, 0, 6, 9).error, ErrorCode::kOutOfOrderSequenceNumber);
  EXPECT_EQ(table.check(kProducer, 0, 4, 9).error, ErrorCode::kOutOfOrderSequenceNumber);
  EXPECT_FALSE(table.record(kProducer, 0, 5, 9, 105));
  EXPECT_EQ(table.check(kProducer, 0, 10, 10).error, ErrorCode::kNone);
}

TEST(ProducerStateTableTest, DuplicateOfOneOfTheLastFiveBatchesGivesItsOffset) {
  ProducerStateTable table;
  for (int batch = 0; batch < 7; ++batch) {
    table.record(kProducer, 0, batch * 2, batch * 2 + 1, 1000 + batch * 2);
  }
  // Batches 2..6 are kept; 0 and 1 are forgotten (out of order now, as in Kafka).
  for (int batch = 2; batch < 7; ++batch) {
    const SequenceCheck check = table.check(kProducer, 0, batch * 2, batch * 2 + 1);
    EXPECT_EQ(check.error, ErrorCode::kNone);
    EXPECT_EQ(check.duplicate_base_offset, 1000 + batch * 2);
  }
  EXPECT_EQ(table.check(kProducer, 0, 2, 3).error, ErrorCode::kOutOfOrderSequenceNumber);
  // Same first sequence but another last one is no duplicate.
  EXPECT_EQ(table.check(kProducer, 0, 12, 14).error, ErrorCode::kOutOfOrderSequenceNumber);
}

TEST(ProducerStateTableTest, OlderEpochIsFencedAndNewerEpochStartsAtZero) {
  ProducerStateTable table;
  table.record(kProducer, 3, 0, 0, 10);
  EXPECT_EQ(table.check(kProducer, 2, 1, 1).error, ErrorCode::kInvalidProducerEpoch);
  // A duplicate is only one of the same epoch.
  EXPECT_EQ(table.check(kProducer, 2, 0, 0).error, ErrorCode::kInvalidProducerEpoch);
  EXPECT_EQ(table.check(kProducer, 4, 1, 1).error, ErrorCode::kOutOfOrderSequenceNumber);
  EXPECT_EQ(table.check(kProducer, 4, 0, 0).error, ErrorCode::kNone);
  EXPECT_EQ(table.check(kProducer, 4, 0, 0).duplicate_base_offset, -1);
  table.record(kProducer, 4, 0, 0, 11);
  // The new epoch forgot the old one's batches.
  EXPECT_EQ(table.check(kProducer, 4, 0, 0).duplicate_base_offset, 11);
  EXPECT_EQ(table.check(kProducer, 3, 0, 0).error, ErrorCode::kInvalidProducerEpoch);
}

TEST(ProducerStateTableTest, SequencesWrapAtInt32Max) {
  constexpr std::int32_t kMax = std::numeric_limits<std::int32_t>::max();
  EXPECT_EQ(ProducerStateTable::last_sequence(0, 5), 4);
  EXPECT_EQ(ProducerStateTable::last_sequence(kMax, 1), kMax);
  EXPECT_EQ(ProducerStateTable::last_sequence(kMax - 1, 4), 1);
  ProducerStateTable table;
  table.record(kProducer, 0, kMax - 1, kMax, 0);
  EXPECT_EQ(table.check(kProducer, 0, 0, 3).error, ErrorCode::kNone);
  EXPECT_EQ(table.check(kProducer, 0, 1, 3).error, ErrorCode::kOutOfOrderSequenceNumber);
}

TEST(ProducerStateTableTest, EraseForgetsTheProducer) {
  ProducerStateTable table;
  table.record(kProducer, 0, 0, 0, 0);
  table.record(kProducer + 1, 0, 0, 0, 1);
  EXPECT_EQ(table.size(), 2U);
  EXPECT_TRUE(table.erase(kProducer));
  EXPECT_FALSE(table.erase(kProducer));
  EXPECT_FALSE(table.contains(kProducer));
  EXPECT_TRUE(table.contains(kProducer + 1));
}

}  // namespace
}  // namespace kgroups::broker
