// SPDX-License-Identifier: Apache-2.0
#include "broker/storage/producer_registry.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

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

TEST(ProducerRegistryTest, WithASaverEachBlockOfIdsIsSavedBeforeItsFirstIdIsIssued) {
  ProducerRegistry registry(10, 100);
  std::vector<std::pair<std::int64_t, std::int64_t>> saved;
  registry.save_id_blocks_with([&](std::int64_t start, std::int64_t end) {
    saved.emplace_back(start, end);
    return true;
  });
  EXPECT_EQ(registry.issue(false), 0);
  ASSERT_EQ(saved.size(), 1U);
  EXPECT_EQ(saved[0], std::make_pair(std::int64_t{0}, ProducerRegistry::kIdBlockSize));
  for (std::int64_t i = 1; i < ProducerRegistry::kIdBlockSize; ++i) (void)registry.issue(true);
  EXPECT_EQ(saved.size(), 1U);  // the whole block from one save
  EXPECT_EQ(registry.issue(true), ProducerRegistry::kIdBlockSize);
  ASSERT_EQ(saved.size(), 2U);
  EXPECT_EQ(saved[1].first, ProducerRegistry::kIdBlockSize);
}

TEST(ProducerRegistryTest, WhenABlockCannotBeSavedNothingIsIssuedAndNothingChanges) {
  ProducerRegistry registry(1, 100);
  bool disk_full = false;
  registry.save_id_blocks_with([&](std::int64_t, std::int64_t) { return !disk_full; });
  const std::int64_t first = registry.issue(false);
  for (std::int64_t i = 1; i < ProducerRegistry::kIdBlockSize; ++i) (void)registry.issue(true);
  disk_full = true;
  EXPECT_FALSE(registry.ready_to_issue());
  EXPECT_EQ(registry.issue(false), -1);
  EXPECT_NE(registry.find(first), nullptr);  // not expired to make room for an id not given
  EXPECT_EQ(registry.idempotent_count(), 1U);
  disk_full = false;
  EXPECT_EQ(registry.issue(false), ProducerRegistry::kIdBlockSize);
}

TEST(ProducerRegistryTest, AfterARestartNewIdsStartPastTheSavedBlockAndOldOnesAreKnownAsIssued) {
  ProducerRegistry registry(10, 100);
  registry.adopt_idempotent(3, 0);  // named by a logged batch
  registry.restore_issued_below(1000);
  EXPECT_TRUE(registry.issued_before_restart(3));
  EXPECT_TRUE(registry.issued_before_restart(999));  // issued, never written
  EXPECT_FALSE(registry.issued_before_restart(1000));
  EXPECT_FALSE(registry.issued_before_restart(-1));
  std::vector<std::int64_t> saved_starts;
  registry.save_id_blocks_with([&](std::int64_t start, std::int64_t) {
    saved_starts.push_back(start);
    return true;
  });
  EXPECT_EQ(registry.issue(false), 1000);
  EXPECT_EQ(saved_starts, std::vector<std::int64_t>{1000});
  EXPECT_FALSE(registry.issued_before_restart(1000));
}

TEST(ProducerRegistryTest, AdoptingIdsAfterARestartStaysWithinTheLimit) {
  ProducerRegistry registry(2, 100);
  registry.adopt_idempotent(1, 0);
  registry.adopt_idempotent(2, 0);
  registry.touch(*registry.find(1));  // 2 is now the least recently used
  registry.adopt_idempotent(3, 0);
  EXPECT_EQ(registry.idempotent_count(), 2U);
  EXPECT_NE(registry.find(1), nullptr);
  EXPECT_EQ(registry.find(2), nullptr);
  EXPECT_NE(registry.find(3), nullptr);
  registry.adopt_idempotent(3, 1);  // known already: nothing expires
  EXPECT_NE(registry.find(1), nullptr);
  EXPECT_EQ(registry.find(3)->epoch, 1);
}

}  // namespace
}  // namespace kgroups::broker
