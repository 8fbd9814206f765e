// SPDX-License-Identifier: Apache-2.0
#include "kafka_client/admin_client.h"

#include <gtest/gtest.h>

#include "protocol/wire_writer.h"

namespace kgroups::cli {
namespace {

// ConsumerProtocolAssignment bytes, as Kafka's consumers write them.
std::vector<std::uint8_t> assignment_bytes(std::int16_t version,
                                           const std::vector<AssignedTopic>& topics,
                                           bool with_user_data) {
  std::vector<std::uint8_t> bytes;
  protocol::WireWriter writer(bytes);
  writer.write_int16(version);
  writer.write_array_length(static_cast<std::int32_t>(topics.size()));
  for (const AssignedTopic& topic : topics) {
    writer.write_string(topic.topic);
    writer.write_array_length(static_cast<std::int32_t>(topic.partitions.size()));
    for (std::int32_t partition : topic.partitions) writer.write_int32(partition);
  }
  if (with_user_data) {
    const std::vector<std::uint8_t> user_data{1, 2, 3};
    writer.write_bytes(user_data);
  }
  return bytes;
}

TEST(ConsumerProtocolAssignment, DecodesTopicsAndPartitions) {
  const std::vector<AssignedTopic> topics{{"orders", {0, 2}}, {"payments", {1}}};
  EXPECT_EQ(broker::consumer_assignment_partitions(assignment_bytes(0, topics, false)), topics);
}

TEST(ConsumerProtocolAssignment, SkipsUserDataOfLaterVersions) {
  const std::vector<AssignedTopic> topics{{"t", {5}}};
  EXPECT_EQ(broker::consumer_assignment_partitions(assignment_bytes(3, topics, true)), topics);
}

TEST(ConsumerProtocolAssignment, EmptyBytesAreAnEmptyAssignment) {
  EXPECT_EQ(broker::consumer_assignment_partitions({}), std::vector<AssignedTopic>{});
}

TEST(ConsumerProtocolAssignment, RejectsTruncatedBytes) {
  std::vector<std::uint8_t> bytes = assignment_bytes(1, {{"orders", {0, 1, 2}}}, false);
  for (std::size_t size = 1; size < bytes.size(); ++size) {
    const std::vector<std::uint8_t> truncated(bytes.begin(),
                                              bytes.begin() + static_cast<std::ptrdiff_t>(size));
    EXPECT_FALSE(broker::consumer_assignment_partitions(truncated).has_value()) << size;
  }
}

}  // namespace
}  // namespace kgroups::cli
