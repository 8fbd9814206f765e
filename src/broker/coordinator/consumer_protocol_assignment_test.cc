// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/consumer_protocol_assignment.h"

#include <gtest/gtest.h>

#include <vector>

namespace kgroups::broker {
namespace {

// ConsumerProtocolAssignment v1: orders [0, 2], audit [1], 3 bytes of user data.
const std::vector<std::uint8_t> kAssignment = {
    0, 1,                                                                    // version
    0, 0, 0,   2,                                                            // two topics
    0, 6, 'o', 'r', 'd', 'e', 'r', 's', 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 2,  // orders: 0, 2
    0, 5, 'a', 'u', 'd', 'i', 't', 0,   0, 0, 1, 0, 0, 0, 1,                 // audit: 1
    0, 0, 0,   3,   'x', 'y', 'z'};                                          // user data

TEST(ConsumerProtocolAssignment, ReadsTopicsAndPartitionsInOrder) {
  const auto topics = consumer_assignment_partitions(kAssignment);
  ASSERT_TRUE(topics.has_value());
  const std::vector<AssignedTopicPartitions> expected = {{"orders", {0, 2}}, {"audit", {1}}};
  EXPECT_EQ(*topics, expected);
}

TEST(ConsumerProtocolAssignment, EmptyBytesAreNoAssignment) {
  const auto topics = consumer_assignment_partitions({});
  ASSERT_TRUE(topics.has_value());
  EXPECT_TRUE(topics->empty());
}

TEST(ConsumerProtocolAssignment, TruncatedOrInflatedBytesAreNotUnderstood) {
  for (std::size_t cut = 1; cut < 34; ++cut) {
    const std::vector<std::uint8_t> truncated(kAssignment.begin(), kAssignment.begin() + cut);
    EXPECT_FALSE(consumer_assignment_partitions(truncated).has_value()) << "cut at " << cut;
  }
  std::vector<std::uint8_t> inflated = kAssignment;
  inflated[5] = 200;  // 200 topics in a few bytes
  EXPECT_FALSE(consumer_assignment_partitions(inflated).has_value());
  std::vector<std::uint8_t> negative = kAssignment;
  negative[2] = 0xff;  // a negative topic count
  EXPECT_FALSE(consumer_assignment_partitions(negative).has_value());
}

}  // namespace
}  // namespace kgroups::broker
