// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/consumer_protocol.h"

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

TEST(ConsumerProtocol, SubscriptionCarriesTopicAndOwnedPartitions) {
  const auto bytes = encode_consumer_subscription("orders", {2, 0});
  const auto decoded = decode_consumer_subscription(bytes);
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(decoded->topics, std::vector<std::string>{"orders"});
  ASSERT_EQ(decoded->owned_partitions.size(), 1U);
  EXPECT_EQ(decoded->owned_partitions[0],
            (AssignedTopicPartitions{"orders", std::vector<std::int32_t>{2, 0}}));
  EXPECT_EQ(consumer_subscription_topics(bytes), std::vector<std::string>{"orders"});
}

TEST(ConsumerProtocol, SubscriptionWithoutOwnedPartitionsHasNoOwnedEntry) {
  const auto decoded = decode_consumer_subscription(encode_consumer_subscription("orders", {}));
  ASSERT_TRUE(decoded.has_value());
  EXPECT_TRUE(decoded->owned_partitions.empty());
}

TEST(ConsumerProtocol, TruncatedSubscriptionIsRefused) {
  auto bytes = encode_consumer_subscription("orders", {1});
  bytes.resize(bytes.size() - 3);
  EXPECT_FALSE(decode_consumer_subscription(bytes).has_value());
}

TEST(ConsumerProtocol, AssignmentReadsBackThroughTheCoordinatorsReader) {
  const auto decoded = consumer_assignment_partitions(encode_consumer_assignment("orders", {1, 3}));
  ASSERT_TRUE(decoded.has_value());
  ASSERT_EQ(decoded->size(), 1U);
  EXPECT_EQ((*decoded)[0], (AssignedTopicPartitions{"orders", std::vector<std::int32_t>{1, 3}}));
  const auto empty = consumer_assignment_partitions(encode_consumer_assignment("orders", {}));
  ASSERT_TRUE(empty.has_value());
  EXPECT_TRUE(empty->empty());
}

}  // namespace
}  // namespace kgroups::broker
