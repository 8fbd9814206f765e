// SPDX-License-Identifier: Apache-2.0
#include "broker/log_format/segment_file_name.h"

#include <gtest/gtest.h>

namespace kgroups::broker {
namespace {

TEST(LogFormatSegmentFileName, IsTheBaseOffsetInTwentyDigitsAndTheSuffix) {
  EXPECT_EQ(segment_file_name(0, ".log"), "00000000000000000000.log");
  EXPECT_EQ(segment_file_name(42, ".index"), "00000000000000000042.index");
  EXPECT_EQ(segment_file_name(9223372036854775807, ".timeindex"), "09223372036854775807.timeindex");
  EXPECT_EQ(segment_file_name(170, ".log.cleaned"), "00000000000000000170.log.cleaned");
}

TEST(LogFormatSegmentFileName, ParsesBackOnlyWhatSegmentFileNameMakes) {
  for (const std::int64_t offset : {0LL, 1LL, 4096LL, 9223372036854775807LL}) {
    for (const char* suffix : {".log", ".index", ".timeindex", ".log.swap", ".log.deleted"}) {
      EXPECT_EQ(parse_segment_file_name(segment_file_name(offset, suffix), suffix), offset);
    }
  }
  EXPECT_FALSE(parse_segment_file_name("0000000000000000042.log", ".log"));    // 19 digits
  EXPECT_FALSE(parse_segment_file_name("000000000000000000042.log", ".log"));  // 21 digits
  EXPECT_FALSE(parse_segment_file_name("00000000000000000042.log", ".index"));
  EXPECT_FALSE(parse_segment_file_name("00000000000000000042.log.swap", ".log"));
  EXPECT_FALSE(parse_segment_file_name("0000000000000000004x.log", ".log"));
  EXPECT_FALSE(parse_segment_file_name("-0000000000000000042.log", ".log"));
  EXPECT_FALSE(parse_segment_file_name("+0000000000000000042.log", ".log"));
  EXPECT_FALSE(parse_segment_file_name("99999999999999999999.log", ".log"));  // > int64
  EXPECT_FALSE(parse_segment_file_name("", ".log"));
}

TEST(LogFormatPartitionDirectoryName, IsTopicDashPartitionAndSplitsAtTheLastDash) {
  EXPECT_EQ(partition_directory_name("orders", 0), "orders-0");
  EXPECT_EQ(partition_directory_name("orders-eu", 12), "orders-eu-12");
  const auto parsed = parse_partition_directory_name("orders-eu-12");
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->topic, "orders-eu");
  EXPECT_EQ(parsed->partition, 12);
  const auto internal = parse_partition_directory_name("__consumer_offsets-49");
  ASSERT_TRUE(internal);
  EXPECT_EQ(internal->topic, "__consumer_offsets");
  EXPECT_EQ(internal->partition, 49);
  const auto dotted = parse_partition_directory_name("a.b_c-2147483647");
  ASSERT_TRUE(dotted);
  EXPECT_EQ(dotted->partition, 2147483647);
}

TEST(LogFormatPartitionDirectoryName, RejectsWhatIsNotAPartitionFolder) {
  EXPECT_FALSE(parse_partition_directory_name("orders"));
  EXPECT_FALSE(parse_partition_directory_name("orders-"));
  EXPECT_FALSE(parse_partition_directory_name("orders-x"));
  EXPECT_FALSE(parse_partition_directory_name("orders-+1"));
  EXPECT_FALSE(parse_partition_directory_name("orders- 1"));
  EXPECT_FALSE(parse_partition_directory_name("orders-2147483648"));
  EXPECT_FALSE(parse_partition_directory_name("-1"));
  EXPECT_FALSE(parse_partition_directory_name("bad name-1"));
  EXPECT_FALSE(parse_partition_directory_name("..-1"));
  EXPECT_FALSE(parse_partition_directory_name(".-1"));
  EXPECT_FALSE(parse_partition_directory_name(std::string(250, 't') + "-1"));
  EXPECT_TRUE(parse_partition_directory_name(std::string(249, 't') + "-1"));
  // Kafka's folders of deleted or moving partitions are not partition folders.
  EXPECT_FALSE(parse_partition_directory_name("orders-0.9f3e2a1b0c4d4e5f8a9b-delete"));
  EXPECT_FALSE(parse_partition_directory_name("orders-0.9f3e2a1b0c4d4e5f8a9b-future"));
  EXPECT_FALSE(parse_partition_directory_name("meta.properties"));
}

}  // namespace
}  // namespace kgroups::broker
