// SPDX-License-Identifier: Apache-2.0
#include "log/partition_log.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kgroups {
namespace {

TEST(PartitionLog, OffsetsAreDenseFromZero) {
  PartitionLog log(3);
  EXPECT_EQ(log.end_offset(), 0);
  EXPECT_EQ(log.append("k", "v", Encoding::kBytes, Encoding::kBytes), 0);
  EXPECT_EQ(log.append("k", "v", Encoding::kBytes, Encoding::kBytes), 1);
  EXPECT_EQ(log.end_offset(), 2);
}

TEST(PartitionLog, ReadsBackKeyValueAndEncodings) {
  PartitionLog log(3);
  log.append("key", "value", Encoding::kText, Encoding::kBytes);
  log.append("", "", Encoding::kBytes, Encoding::kText);
  const Record first = log.read(0);
  EXPECT_EQ(first.partition, 3);
  EXPECT_EQ(first.offset, 0);
  EXPECT_EQ(first.key, "key");
  EXPECT_EQ(first.value, "value");
  EXPECT_EQ(first.key_encoding, Encoding::kText);
  EXPECT_EQ(first.value_encoding, Encoding::kBytes);
  const Record second = log.read(1);
  EXPECT_TRUE(second.key.empty());
  EXPECT_TRUE(second.value.empty());
  EXPECT_EQ(second.key_encoding, Encoding::kBytes);
  EXPECT_EQ(second.value_encoding, Encoding::kText);
}

TEST(PartitionLog, LongKeysAndValuesUseMultiByteLengths) {
  PartitionLog log(0);
  const std::string key(300, 'k');
  const std::string value(3 << 20, 'v');  // larger than an arena chunk
  log.append(key, value, Encoding::kText, Encoding::kText);
  log.append(std::string(64, 'x'), "after", Encoding::kBytes, Encoding::kBytes);
  EXPECT_EQ(log.read(0).key, key);
  EXPECT_EQ(log.read(0).value, value);
  EXPECT_EQ(log.read(1).key, std::string(64, 'x'));
  EXPECT_EQ(log.read(1).value, "after");
}

TEST(PartitionLog, ReadIntoWalksAcrossRunsAndChunksInOrder) {
  PartitionLog log(1);
  const std::int64_t count = 100 * PartitionLog::kRunRecords + 7;
  for (std::int64_t i = 0; i < count; ++i) {
    log.append(std::to_string(i), "v" + std::to_string(i), Encoding::kBytes, Encoding::kBytes);
  }
  std::vector<Record> records;
  log.read_into(PartitionLog::kRunRecords - 2, 50 * PartitionLog::kRunRecords + 5, records);
  ASSERT_EQ(records.size(), static_cast<std::size_t>(50 * PartitionLog::kRunRecords + 5));
  for (std::size_t i = 0; i < records.size(); ++i) {
    const std::int64_t offset = PartitionLog::kRunRecords - 2 + static_cast<std::int64_t>(i);
    EXPECT_EQ(records[i].offset, offset);
    EXPECT_EQ(records[i].key, std::to_string(offset));
    EXPECT_EQ(records[i].value, "v" + std::to_string(offset));
  }
}

TEST(PartitionLog, ReadFindsEveryOffsetAcrossChunksAndLargeRecords) {
  PartitionLog log(0);
  std::vector<std::pair<std::string, std::string>> expected;
  for (int i = 0; i < 3000; ++i) {
    // Mixed sizes: one-byte and multi-byte headers, and every 97th record
    // large enough for a chunk of its own (so the walk jumps out and back).
    const std::size_t value_size = i % 97 == 0 ? 100000 : static_cast<std::size_t>(i % 300);
    std::string key(static_cast<std::size_t>(i % 70), static_cast<char>('a' + i % 26));
    std::string value(value_size, static_cast<char>('A' + i % 26));
    log.append(key, value, i % 2 == 0 ? Encoding::kText : Encoding::kBytes, Encoding::kBytes);
    expected.emplace_back(std::move(key), std::move(value));
  }
  for (std::int64_t offset = 0; offset < log.end_offset(); ++offset) {
    const Record record = log.read(offset);
    const auto& [key, value] = expected[static_cast<std::size_t>(offset)];
    ASSERT_EQ(record.key, key) << offset;
    ASSERT_EQ(record.value, value) << offset;
    ASSERT_EQ(record.key_encoding, offset % 2 == 0 ? Encoding::kText : Encoding::kBytes);
  }
  std::vector<Record> all;
  log.read_into(0, log.end_offset(), all);
  ASSERT_EQ(all.size(), expected.size());
  for (std::size_t i = 0; i < all.size(); ++i) ASSERT_EQ(all[i].value, expected[i].second);
}

TEST(PartitionLog, ViewsStayValidAsTheLogGrows) {
  PartitionLog log(0);
  log.append("first", "value", Encoding::kBytes, Encoding::kBytes);
  const Record first = log.read(0);
  for (int i = 0; i < 100000; ++i) log.append("k", "v", Encoding::kBytes, Encoding::kBytes);
  EXPECT_EQ(first.key, "first");
  EXPECT_EQ(first.value, "value");
}

TEST(PartitionLog, OverheadPerSmallRecordIsAtMostTwelveBytes) {
  PartitionLog log(0);
  const std::int64_t count = 1 << 20;
  const std::string key(16, 'k');
  const std::string value(32, 'v');
  for (std::int64_t i = 0; i < count; ++i)
    log.append(key, value, Encoding::kBytes, Encoding::kBytes);
  const double payload =
      static_cast<double>(count) * static_cast<double>(key.size() + value.size());
  const double overhead = (static_cast<double>(log.memory_bytes()) - payload) / count;
  EXPECT_LE(overhead, 12.0);
}

}  // namespace
}  // namespace kgroups
