// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/consumer_protocol_assignment.h"

#include <gtest/gtest.h>

#include "broker/coordinator/coordinator_test_harness.h"

namespace kgroups::broker {
namespace {

TEST(ConsumerProtocolAssignment, ReadsTopicsAndPartitionsInOrder) {
  const std::vector<std::uint8_t> bytes =
      consumer_assignment_bytes({{"orders", {2, 0}}, {"payments", {}}, {"audit", {7}}});
  EXPECT_EQ(
      consumer_assignment_partitions(bytes),
      (std::vector<AssignedTopicPartitions>{{"orders", {2, 0}}, {"payments", {}}, {"audit", {7}}}));
}

TEST(ConsumerProtocolAssignment, EmptyBytesAreAnEmptyAssignment) {
  const auto partitions = consumer_assignment_partitions({});
  ASSERT_TRUE(partitions.has_value());
  EXPECT_TRUE(partitions->empty());
}

TEST(ConsumerProtocolAssignment, EveryTruncationIsRefused) {
  const std::vector<std::uint8_t> bytes = consumer_assignment_bytes({{"orders", {0, 1, 2}}});
  // Everything up to the partitions' end is needed; the user data is not read.
  const std::size_t needed = bytes.size() - 4;
  for (std::size_t cut = 1; cut < needed; ++cut) {
    EXPECT_FALSE(consumer_assignment_partitions({bytes.data(), cut}).has_value()) << cut;
  }
  EXPECT_TRUE(consumer_assignment_partitions({bytes.data(), needed}).has_value());
}

TEST(ConsumerProtocolAssignment, NegativeOrOversizedCountsAreRefused) {
  // version 0, topic count -1
  EXPECT_FALSE(
      consumer_assignment_partitions(std::vector<std::uint8_t>{0, 0, 0xFF, 0xFF, 0xFF, 0xFF})
          .has_value());
  // version 0, 1000 topics in 6 bytes
  EXPECT_FALSE(
      consumer_assignment_partitions(std::vector<std::uint8_t>{0, 0, 0, 0, 0x03, 0xE8, 0, 0, 0, 0})
          .has_value());
  // one topic "a" with a partition count of 2^30 and no partitions
  EXPECT_FALSE(consumer_assignment_partitions(
                   std::vector<std::uint8_t>{0, 0, 0, 0, 0, 1, 0, 1, 'a', 0x40, 0, 0, 0})
                   .has_value());
}

TEST(ConsumerProtocolAssignment, NonConsumerBytesAreRefused) {
  EXPECT_FALSE(consumer_assignment_partitions(bytes("assignment-of-a-connect-worker")).has_value());
}

}  // namespace
}  // namespace kgroups::broker
