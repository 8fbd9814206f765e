// SPDX-License-Identifier: Apache-2.0
#include "coordinator_log_record.h"

#include <gtest/gtest.h>

#include "protocol/coordinator_records/coordinator_record_key.h"
#include "protocol/coordinator_records/offset_commit_value.h"
#include "protocol/coordinator_records/transaction_log_key.h"
#include "protocol/coordinator_records/transaction_log_value.h"

namespace kgroups::cli {
namespace {

using protocol::ByteView;
using protocol::CoordinatorRecordKey;

TEST(OffsetsLogRecord, AnOffsetCommitIsOneLineWithEveryField) {
  const auto key = CoordinatorRecordKey::offset_commit("g", "orders", 2).encode();
  protocol::OffsetCommitValue value;
  value.offset = 42;
  value.leader_epoch = 3;
  value.metadata = "m";
  value.commit_timestamp_ms = 1700000000000;
  const auto bytes = value.encode();
  EXPECT_EQ(describe_offsets_record(ByteView(key), ByteView(bytes)),
            "OffsetCommit group=\"g\" topic=\"orders\" partition=2 -> offset=42 leader_epoch=3 "
            "metadata=\"m\" commit_timestamp_ms=1700000000000 version=3");
}

TEST(OffsetsLogRecord, ATombstoneIsShownAsOne) {
  const auto key =
      CoordinatorRecordKey::group(protocol::CoordinatorRecordType::kGroupMetadata, "g").encode();
  EXPECT_EQ(describe_offsets_record(ByteView(key), std::nullopt),
            "GroupMetadata group=\"g\" -> tombstone");
  EXPECT_TRUE(offsets_record_json(ByteView(key), std::nullopt)["value"].is_null());
}

TEST(OffsetsLogRecord, BytesThatDoNotDecodeAreSaidToBeSo) {
  const std::vector<std::uint8_t> junk = {0, 99, 1};
  EXPECT_EQ(offsets_record_json(ByteView(junk), std::nullopt)["type"], "undecodable");
}

TEST(TransactionsLogRecord, AStateIsOneLineWithEveryField) {
  const auto key = protocol::TransactionLogKey::encode("tx");
  protocol::TransactionLogValue value;
  value.producer_id = 7;
  value.producer_epoch = 1;
  value.timeout_ms = 60000;
  value.state = protocol::TransactionLogState::kPrepareCommit;
  value.partitions = std::vector<protocol::TransactionLogTopic>{{"orders", {0, 2}}};
  value.last_update_timestamp_ms = 1700000000001;
  value.start_timestamp_ms = 1700000000000;
  const auto bytes = value.encode();
  EXPECT_EQ(describe_transactions_record(ByteView(key), ByteView(bytes)),
            "TransactionLog transactional_id=\"tx\" -> producer_id=7 producer_epoch=1 "
            "timeout_ms=60000 state=\"PrepareCommit\" "
            "partitions=[{\"topic\":\"orders\",\"partitions\":[0,2]}] "
            "last_update_timestamp_ms=1700000000001 start_timestamp_ms=1700000000000 version=0");
}

TEST(TransactionsLogRecord, ATombstoneAndUndecodableBytesAreSaidToBeSo) {
  const auto key = protocol::TransactionLogKey::encode("tx");
  EXPECT_EQ(describe_transactions_record(ByteView(key), std::nullopt),
            "TransactionLog transactional_id=\"tx\" -> tombstone");
  const std::vector<std::uint8_t> junk = {0, 1, 0, 1, 'g'};  // a __consumer_offsets key
  EXPECT_EQ(transactions_record_json(ByteView(junk), std::nullopt)["type"], "undecodable");
  const std::vector<std::uint8_t> short_value = {0, 0, 1};
  EXPECT_EQ(
      transactions_record_json(ByteView(key), ByteView(short_value))["value"]["undecodable_bytes"],
      3);
}

}  // namespace
}  // namespace kgroups::cli
