// SPDX-License-Identifier: Apache-2.0
#include "offsets_log_record.h"

#include <gtest/gtest.h>

#include "protocol/coordinator_records/coordinator_record_key.h"
#include "protocol/coordinator_records/offset_commit_value.h"

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

}  // namespace
}  // namespace kgroups::cli
