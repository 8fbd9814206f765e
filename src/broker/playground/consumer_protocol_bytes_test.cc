// SPDX-License-Identifier: Apache-2.0
//
// The consumer protocol bytes of the simulated consumers, read back by this folder's decoder
// and by the coordinator's own readers (which GET /v1/groups/{id} and OffsetDelete use).
#include "broker/playground/consumer_protocol_bytes.h"

#include <gtest/gtest.h>

#include "broker/coordinator/consumer_protocol_assignment.h"
#include "broker/coordinator/consumer_protocol_subscription.h"

namespace kgroups::broker::playground {
namespace {

TEST(ConsumerProtocolBytesTest, SubscriptionCarriesTopicAndOwnedPartitions) {
  const auto bytes = encode_consumer_subscription("orders", {2, 0});
  const auto decoded = decode_consumer_subscription(bytes);
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(decoded->topics, std::vector<std::string>{"orders"});
  ASSERT_EQ(decoded->owned_partitions.size(), 1U);
  EXPECT_EQ(decoded->owned_partitions[0],
            (AssignedTopicPartitions{"orders", std::vector<std::int32_t>{2, 0}}));
  EXPECT_EQ(consumer_subscription_topics(bytes), std::vector<std::string>{"orders"});
}

TEST(ConsumerProtocolBytesTest, SubscriptionWithoutOwnedPartitionsHasNoOwnedEntry) {
  const auto decoded = decode_consumer_subscription(encode_consumer_subscription("orders", {}));
  ASSERT_TRUE(decoded.has_value());
  EXPECT_TRUE(decoded->owned_partitions.empty());
}

TEST(ConsumerProtocolBytesTest, TruncatedSubscriptionIsRefused) {
  auto bytes = encode_consumer_subscription("orders", {1});
  bytes.resize(bytes.size() - 3);
  EXPECT_FALSE(decode_consumer_subscription(bytes).has_value());
}

TEST(ConsumerProtocolBytesTest, AssignmentReadsBackThroughTheCoordinatorsReader) {
  const auto decoded = consumer_assignment_partitions(encode_consumer_assignment("orders", {1, 3}));
  ASSERT_TRUE(decoded.has_value());
  ASSERT_EQ(decoded->size(), 1U);
  EXPECT_EQ((*decoded)[0], (AssignedTopicPartitions{"orders", std::vector<std::int32_t>{1, 3}}));
  const auto empty = consumer_assignment_partitions(encode_consumer_assignment("orders", {}));
  ASSERT_TRUE(empty.has_value());
  EXPECT_TRUE(empty->empty());
}

}  // namespace
}  // namespace kgroups::broker::playground
