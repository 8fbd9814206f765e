// SPDX-License-Identifier: Apache-2.0
#include "broker/storage/producer_registry.h"

#include <gtest/gtest.h>

namespace kgroups::broker {
namespace {

TEST(ProducerRegistryTest, IssuesDistinctIdsAtEpochZero) {
  ProducerRegistry registry(10, 100);
  const std::int64_t first = registry.issue(false);
  const std::int64_t second = registry.issue(true);
  EXPECT_NE(first, second);
  ASSERT_NE(registry.find(first), nullptr);
  EXPECT_EQ(registry.find(first)->epoch, 0);
  EXPECT_FALSE(registry.find(first)->transactional);
  EXPECT_TRUE(registry.find(second)->transactional);
  EXPECT_EQ(registry.find(second + 1), nullptr);
}

TEST(ProducerRegistryTest, AtTheLimitTheLeastRecentlyUsedIdempotentProducerExpires) {
  ProducerRegistry registry(2, 100);
  const std::int64_t transactional = registry.issue(true);
  const std::int64_t a = registry.issue(false);
  const std::int64_t b = registry.issue(false);
  ProducerStateTable partition;
  partition.record(a, 0, 0, 0, 0);
  registry.added_partition_state(a, partition);
  registry.touch(*registry.find(a));  // b is now the least recently used
  const std::int64_t c = registry.issue(false);
  EXPECT_EQ(registry.find(b), nullptr);
  EXPECT_NE(registry.find(a), nullptr);
  EXPECT_NE(registry.find(c), nullptr);
  EXPECT_NE(registry.find(transactional), nullptr);  // not counted, never expired here
  EXPECT_EQ(registry.idempotent_count(), 2U);
  registry.touch(*registry.find(c));
  registry.issue(false);  // a expires, and with it its partition state
  EXPECT_EQ(registry.find(a), nullptr);
  EXPECT_FALSE(partition.contains(a));
  EXPECT_EQ(registry.partition_state_count(), 0U);
}

TEST(ProducerRegistryTest, PartitionStatesAreBounded) {
  ProducerRegistry registry(10, 2);
  const std::int64_t a = registry.issue(false);
  const std::int64_t b = registry.issue(false);
  ProducerStateTable first;
  ProducerStateTable second;
  for (ProducerStateTable* table : {&first, &second}) {
    ASSERT_TRUE(registry.make_room_for_partition_state(a));
    table->record(a, 0, 0, 0, 0);
    registry.added_partition_state(a, *table);
  }
  EXPECT_EQ(registry.partition_state_count(), 2U);
  // b needs room: a (least recently used, other than b) expires with both its entries.
  EXPECT_TRUE(registry.make_room_for_partition_state(b));
  EXPECT_EQ(registry.find(a), nullptr);
  EXPECT_EQ(first.size() + second.size(), 0U);
  EXPECT_EQ(registry.partition_state_count(), 0U);
}

TEST(ProducerRegistryTest, ADeletedPartitionLeavesEveryProducerAndTheCount) {
  ProducerRegistry registry(10, 10);
  const std::int64_t a = registry.issue(false);
  ProducerStateTable kept;
  {
    ProducerStateTable deleted;
    for (ProducerStateTable* table : {&kept, &deleted}) {
      ASSERT_TRUE(registry.make_room_for_partition_state(a));
      table->record(a, 0, 0, 0, 0);
      registry.added_partition_state(a, *table);
    }
    ASSERT_EQ(registry.partition_state_count(), 2U);
    registry.forget_partition(deleted);  // DeleteTopics, before the table goes
    EXPECT_EQ(registry.partition_state_count(), 1U);
  }
  // Expiring the producer now touches only the partition that still exists.
  ASSERT_NE(registry.find(a), nullptr);
  EXPECT_EQ(registry.find(a)->partitions.size(), 1U);
  registry.expire(a);
  EXPECT_EQ(kept.size(), 0U);
  EXPECT_EQ(registry.partition_state_count(), 0U);
}

TEST(ProducerRegistryTest, NoRoomWhenOnlyTheWriterOrTransactionalProducersHoldState) {
  ProducerRegistry registry(10, 1);
  const std::int64_t transactional = registry.issue(true);
  const std::int64_t idempotent = registry.issue(false);
  ProducerStateTable table;
  table.record(transactional, 0, 0, 0, 0);
  registry.added_partition_state(transactional, table);
  EXPECT_FALSE(registry.make_room_for_partition_state(idempotent));
  EXPECT_NE(registry.find(transactional), nullptr);
  EXPECT_NE(registry.find(idempotent), nullptr);
}

}  // namespace
}  // namespace kgroups::broker
