// SPDX-License-Identifier: Apache-2.0
//
// The records of __transaction_state: the key and both value versions round-trip, and the
// bytes are the ones Kafka's TransactionLogKey and TransactionLogValue schemas give, written
// out by hand field by field.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "protocol/coordinator_records/transaction_log_key.h"
#include "protocol/coordinator_records/transaction_log_value.h"

namespace kgroups::protocol {
namespace {

using Bytes = std::vector<std::uint8_t>;

TEST(TransactionLogKey, IsVersionZeroThenTheTransactionalId) {
  const Bytes expected = {0, 0,                  // key version 0
                          0, 3, 't', 'x', '1'};  // transactional id
  EXPECT_EQ(TransactionLogKey::encode("tx1"), expected);
  const auto decoded = TransactionLogKey::decode(expected);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(*decoded, "tx1");
}

TEST(TransactionLogKey, AnotherVersionOrTrailingBytesDoNotDecode) {
  EXPECT_FALSE(TransactionLogKey::decode(Bytes{0, 1, 0, 1, 'a'}));     // a group key's type
  EXPECT_FALSE(TransactionLogKey::decode(Bytes{0, 0, 0, 1, 'a', 9}));  // a byte too many
  EXPECT_FALSE(TransactionLogKey::decode(Bytes{0, 0, 0, 2, 'a'}));     // a byte too few
}

TransactionLogValue ongoing() {
  TransactionLogValue value;
  value.producer_id = 7;
  value.producer_epoch = 2;
  value.timeout_ms = 60000;
  value.state = TransactionLogState::kOngoing;
  value.partitions = std::vector<TransactionLogTopic>{{"t", {0, 3}}};
  value.last_update_timestamp_ms = 1000;
  value.start_timestamp_ms = 900;
  return value;
}

TEST(TransactionLogValue, VersionZeroBytesAreKafkasSchema) {
  const Bytes expected = {0, 0,                                            // version 0
                          0, 0, 0,    0,    0, 0, 0,    7,                 // producer id
                          0, 2,                                            // producer epoch
                          0, 0, 0xEA, 0x60,                                // timeout 60000 ms
                          1,                                               // state Ongoing
                          0, 0, 0,    1,                                   // one topic
                          0, 1, 't',                                       //   its name
                          0, 0, 0,    2,    0, 0, 0,    0,    0, 0, 0, 3,  //   partitions 0 and 3
                          0, 0, 0,    0,    0, 0, 0x03, 0xE8,              // last update 1000
                          0, 0, 0,    0,    0, 0, 0x03, 0x84};             // start 900
  EXPECT_EQ(ongoing().encode(), expected);
  const auto decoded = TransactionLogValue::decode(expected);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(*decoded, ongoing());
}

TEST(TransactionLogValue, AnEmptyTransactionHasNullPartitions) {
  TransactionLogValue empty;
  empty.producer_id = 1;
  empty.producer_epoch = 0;
  const Bytes bytes = empty.encode();
  const Bytes null_array = {0xFF, 0xFF, 0xFF, 0xFF};
  EXPECT_TRUE(std::search(bytes.begin(), bytes.end(), null_array.begin(), null_array.end()) ==
              bytes.begin() + 17);
  const auto decoded = TransactionLogValue::decode(bytes);
  ASSERT_TRUE(decoded);
  EXPECT_FALSE(decoded->partitions.has_value());
}

TEST(TransactionLogValue, VersionOneIsFlexibleWithTaggedFields) {
  TransactionLogValue value = ongoing();
  value.version = 1;
  value.previous_producer_id = 5;
  value.client_transaction_version = 2;
  const Bytes expected = {
      0, 1,                                        // version 1
      0, 0,   0,    0,    0, 0, 0,    7,           // producer id
      0, 2,                                        // producer epoch
      0, 0,   0xEA, 0x60,                          // timeout
      1,                                           // Ongoing
      2,                                           // compact array: one topic
      2, 't',                                      //   compact string
      3, 0,   0,    0,    0, 0, 0,    0,    3,     //   compact array of two partitions
      0,                                           //   the topic's tagged fields
      0, 0,   0,    0,    0, 0, 0x03, 0xE8,        // last update
      0, 0,   0,    0,    0, 0, 0x03, 0x84,        // start
      2,                                           // two tagged fields
      0, 8,   0,    0,    0, 0, 0,    0,    0, 5,  //   tag 0: previous producer id 5
      2, 2,   0,    2};                            //   tag 2: client transaction version 2
  EXPECT_EQ(value.encode(), expected);
  const auto decoded = TransactionLogValue::decode(expected);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(*decoded, value);
}

TEST(TransactionLogValue, UnknownTaggedFieldsAreSkippedAndBadBytesRefused) {
  TransactionLogValue value = ongoing();
  value.version = 1;
  Bytes bytes = value.encode();
  bytes.back() = 1;  // one tagged field: tag 9, two bytes
  for (const std::uint8_t byte : {9, 2, 0xAB, 0xCD}) bytes.push_back(byte);
  const auto decoded = TransactionLogValue::decode(bytes);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(*decoded, value);
  EXPECT_FALSE(TransactionLogValue::decode(Bytes{0, 2, 0, 0}));  // version 2: unknown
  Bytes truncated = ongoing().encode();
  truncated.pop_back();
  EXPECT_FALSE(TransactionLogValue::decode(truncated));
}

TEST(TransactionLogState, NamesAreKafkas) {
  EXPECT_EQ(transaction_log_state_name(TransactionLogState::kPrepareCommit), "PrepareCommit");
  EXPECT_EQ(transaction_log_state_name(TransactionLogState::kCompleteAbort), "CompleteAbort");
  EXPECT_EQ(transaction_log_state_name(static_cast<TransactionLogState>(42)), "Unknown");
}

}  // namespace
}  // namespace kgroups::protocol
