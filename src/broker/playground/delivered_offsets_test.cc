// SPDX-License-Identifier: Apache-2.0
#include "broker/playground/delivered_offsets.h"

#include <gtest/gtest.h>

#include <string>

#include "broker/runtime/memory_charge_for_tests.h"

namespace kgroups::broker::playground {
namespace {

const protocol::Uuid kTopic{1, 2};

TEST(DeliveredOffsets, ADeliveryBelowTheGroupsEndIsAReplayOfThatPart) {
  DeliveredOffsets delivered;
  EXPECT_FALSE(delivered.deliver("g", kTopic, 0, {0, 50}).has_value());
  const auto replay = delivered.deliver("g", kTopic, 0, {30, 60});
  ASSERT_TRUE(replay.has_value());
  EXPECT_EQ(replay->from, 30);
  EXPECT_EQ(replay->to, 50);
  EXPECT_FALSE(delivered.deliver("other", kTopic, 0, {0, 10}).has_value()) << "per group";
}

TEST(DeliveredOffsets, ForgettingAGroupDropsEveryPartitionOfIt) {
  DeliveredOffsets delivered;
  for (std::int32_t partition = 0; partition < 100; ++partition) {
    delivered.deliver(std::string(1000, 'a'), kTopic, partition, {0, 1});
    delivered.deliver("kept", kTopic, partition, {0, 1});
  }
  EXPECT_EQ(delivered.size(), 200U);
  delivered.forget_groups_except([](std::string_view group) { return group == "kept"; });
  EXPECT_EQ(delivered.size(), 100U);
  EXPECT_TRUE(delivered.deliver("kept", kTopic, 0, {0, 1}).has_value()) << "kept groups remember";
  EXPECT_FALSE(delivered.deliver(std::string(1000, 'a'), kTopic, 0, {0, 1}).has_value());
}

TEST(DeliveredOffsets, EveryEntryIsChargedAndGivenBackWhenItsGroupIsForgotten) {
  std::size_t held = 0;
  const std::size_t room =
      2 * (DeliveredOffsets::kGroupEntryBytes + 1) + 150 * DeliveredOffsets::kPartitionEntryBytes;
  {
    DeliveredOffsets delivered(testing::charge_within(held, room));
    for (std::int32_t partition = 0; partition < 100; ++partition) {
      delivered.deliver("a", kTopic, partition, {0, 1});
      delivered.deliver("b", kTopic, partition, {0, 1});
    }
    // Room for 150 partitions: the rest were not tracked, and report no replay.
    EXPECT_EQ(delivered.size(), 150U);
    EXPECT_EQ(delivered.untracked(), 50U);
    EXPECT_EQ(held, delivered.held_bytes());
    EXPECT_LE(held, room);
    EXPECT_FALSE(delivered.deliver("b", kTopic, 99, {0, 1}).has_value());
    delivered.deliver("a", kTopic, 0, {0, 1});  // already tracked: costs nothing more
    EXPECT_EQ(held, delivered.held_bytes());
    delivered.forget_groups_except([](std::string_view group) { return group == "b"; });
    EXPECT_EQ(held,
              DeliveredOffsets::kGroupEntryBytes + 1 + 75 * DeliveredOffsets::kPartitionEntryBytes);
    // The room given back tracks b's other partitions now.
    EXPECT_FALSE(delivered.deliver("b", kTopic, 99, {0, 1}).has_value());
    EXPECT_TRUE(delivered.deliver("b", kTopic, 99, {0, 1}).has_value());
  }
  EXPECT_EQ(held, 0U) << "destroying it gives everything back";
}

}  // namespace
}  // namespace kgroups::broker::playground
