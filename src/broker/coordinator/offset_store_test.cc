// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/offset_store.h"

#include <gtest/gtest.h>

namespace kgroups::broker {
namespace {

TEST(OffsetStore, UncommittedPartitionReadsMinusOneWithEmptyMetadata) {
  OffsetStore store;
  EXPECT_TRUE(store.empty());
  EXPECT_EQ(store.fetch({"orders", 0}), (CommittedOffset{-1, ""}));
}

TEST(OffsetStore, CommitReplacesThePartitionsOffsetOnly) {
  OffsetStore store;
  store.commit({"orders", 0}, {5, "first"});
  store.commit({"orders", 0}, {9, "second"});
  store.commit({"orders", 1}, {2, ""});
  EXPECT_EQ(store.fetch({"orders", 0}), (CommittedOffset{9, "second"}));
  EXPECT_EQ(store.fetch({"orders", 1}), (CommittedOffset{2, ""}));
  EXPECT_EQ(store.fetch({"payments", 0}).offset, -1);
}

TEST(OffsetStore, FetchAllIsOrderedByTopicThenPartition) {
  OffsetStore store;
  store.commit({"b", 1}, {1, ""});
  store.commit({"a", 2}, {2, ""});
  store.commit({"b", 0}, {3, ""});
  std::vector<PartitionOffset> all = store.fetch_all();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].topic_partition, (TopicPartition{"a", 2}));
  EXPECT_EQ(all[1].topic_partition, (TopicPartition{"b", 0}));
  EXPECT_EQ(all[2].topic_partition, (TopicPartition{"b", 1}));
  EXPECT_EQ(all[2].committed.offset, 1);
}

TEST(OffsetStore, CountsItsBytesAndPredictsEachCommitsGrowth) {
  OffsetStore store;
  EXPECT_EQ(store.stored_bytes(), 0u);
  const std::size_t new_entry = store.growth_bytes({"orders", 0}, {5, "meta"});
  EXPECT_GT(new_entry, std::string("orders").size() + std::string("meta").size());
  store.commit({"orders", 0}, {5, "meta"});
  EXPECT_EQ(store.stored_bytes(), new_entry);
  EXPECT_EQ(store.growth_bytes({"orders", 0}, {6, "metadata"}), 4u);
  store.commit({"orders", 0}, {6, "metadata"});
  EXPECT_EQ(store.stored_bytes(), new_entry + 4);
  EXPECT_EQ(store.growth_bytes({"orders", 0}, {7, ""}), 0u);  // shrinking does not grow
  store.commit({"orders", 0}, {7, ""});
  EXPECT_EQ(store.stored_bytes(), new_entry - 4);
}

}  // namespace
}  // namespace kgroups::broker
