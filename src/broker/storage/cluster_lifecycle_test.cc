// SPDX-License-Identifier: Apache-2.0
//
// Cluster's topic lifecycle: deletion, growth and DeleteRecords, with the memory they free.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "broker/storage/cluster.h"
#include "protocol/record_batch.h"
#include "protocol/record_batch_builder.h"

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;

constexpr std::int64_t kKiB = 1024;

std::vector<std::uint8_t> batch_of(int records, std::size_t value_bytes) {
  protocol::RecordBatchBuilder builder;
  const std::string value(value_bytes, 'v');
  for (int i = 0; i < records; ++i) {
    builder.add(protocol::ByteView::of("k"), protocol::ByteView::of(value), 1000 + i);
  }
  return builder.build();
}

protocol::Result<std::int64_t> append(Cluster& cluster, StoredTopic& topic, std::int32_t partition,
                                      const std::vector<std::uint8_t>& batch) {
  const auto header = protocol::parse_record_batch_header(batch);
  return cluster.append(topic, partition, batch, header->last_offset_delta, header->max_timestamp);
}

TEST(ClusterLifecycle, DeletingATopicFreesItsMemoryPartitionsAndIdAndBumpsTheVersion) {
  Cluster cluster(6, true);
  ASSERT_EQ(cluster.create_topic("gone", 3), ErrorCode::kNone);
  ASSERT_EQ(cluster.create_topic("kept", 2), ErrorCode::kNone);
  StoredTopic& gone = *cluster.find_topic("gone");
  StoredTopic& kept = *cluster.find_topic("kept");
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(append(cluster, gone, i % 3, batch_of(1, 500)).has_value());
    ASSERT_TRUE(append(cluster, kept, i % 2, batch_of(1, 500)).has_value());
  }
  const protocol::Uuid id = gone.id;
  const std::uint64_t version = cluster.metadata_version();
  const std::int64_t kept_memory = static_cast<std::int64_t>(kept.partitions[0].memory_bytes() +
                                                             kept.partitions[1].memory_bytes());

  EXPECT_TRUE(cluster.delete_topic("gone"));
  EXPECT_EQ(cluster.find_topic("gone"), nullptr);
  EXPECT_EQ(cluster.find_topic(id), nullptr);
  EXPECT_EQ(cluster.find_partition("gone", 0), nullptr);
  EXPECT_EQ(cluster.partition_count(), 2);
  EXPECT_EQ(cluster.log_memory_used(), kept_memory);
  EXPECT_GT(cluster.metadata_version(), version);
  EXPECT_FALSE(cluster.delete_topic("gone"));
}

TEST(ClusterLifecycle, ATopicCreatedAgainAfterDeletionHasANewIdAndStartsAtZero) {
  Cluster cluster(6, true);
  ASSERT_EQ(cluster.create_topic("t", 1), ErrorCode::kNone);
  const protocol::Uuid first_id = cluster.find_topic("t")->id;
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(append(cluster, *cluster.find_topic("t"), 0, batch_of(2, 10)).has_value());
  }
  ASSERT_TRUE(cluster.delete_topic("t"));
  ASSERT_EQ(cluster.create_topic("t", 1), ErrorCode::kNone);
  const StoredTopic& again = *cluster.find_topic("t");
  EXPECT_NE(again.id, first_id);
  EXPECT_EQ(again.partitions[0].high_watermark(), 0);
  EXPECT_EQ(append(cluster, *cluster.find_topic("t"), 0, batch_of(1, 10)).value(), 0);
}

TEST(ClusterLifecycle, EvictionAfterADeletionNeverTouchesTheDeletedLogs) {
  // The deleted topic's segments were the oldest: eviction must skip them (they are gone),
  // not read freed logs. ASan would catch a stale entry being used.
  Cluster cluster(ClusterConfig{.default_partitions = 1,
                                .auto_create = true,
                                .topic_defaults = {.retention_ms = -1, .retention_bytes = -1},
                                .log_memory_bytes = 64 * kKiB});
  ASSERT_EQ(cluster.create_topic("old", 1), ErrorCode::kNone);
  ASSERT_EQ(cluster.create_topic("new", 1), ErrorCode::kNone);
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(append(cluster, *cluster.find_topic("old"), 0, batch_of(1, 3000)).has_value());
  }
  ASSERT_TRUE(cluster.delete_topic("old"));
  EXPECT_EQ(cluster.log_memory_used(), 0);
  StoredTopic& fresh = *cluster.find_topic("new");
  for (int i = 0; i < 60; ++i) {
    ASSERT_TRUE(append(cluster, fresh, 0, batch_of(1, 3000)).has_value());
    EXPECT_LE(cluster.log_memory_used(), 64 * kKiB);
  }
  EXPECT_GT(fresh.partitions[0].log_start_offset(), 0);
  EXPECT_EQ(cluster.log_memory_used(),
            static_cast<std::int64_t>(fresh.partitions[0].memory_bytes()));
}

TEST(ClusterLifecycle, AddingPartitionsGrowsTheTopicWithoutMovingItsLogs) {
  Cluster cluster(ClusterConfig{.default_partitions = 2,
                                .auto_create = true,
                                .topic_defaults = {},
                                .max_partitions = 10,
                                .max_partitions_per_topic = 6});
  ASSERT_EQ(cluster.create_topic("t", 2), ErrorCode::kNone);
  StoredTopic& topic = *cluster.find_topic("t");
  ASSERT_TRUE(append(cluster, topic, 1, batch_of(3, 10)).has_value());
  const BatchLog* first = cluster.find_partition("t", 0);
  const BatchLog* second = cluster.find_partition("t", 1);
  const std::uint64_t version = cluster.metadata_version();

  EXPECT_EQ(cluster.check_new_partitions(topic, 2), ErrorCode::kInvalidPartitions);
  EXPECT_EQ(cluster.add_partitions(topic, 1), ErrorCode::kInvalidPartitions);
  EXPECT_EQ(cluster.add_partitions(topic, 7), ErrorCode::kInvalidPartitions);  // per topic
  EXPECT_EQ(cluster.metadata_version(), version);
  EXPECT_EQ(cluster.add_partitions(topic, 6), ErrorCode::kNone);
  EXPECT_EQ(topic.partitions.size(), 6u);
  EXPECT_EQ(cluster.partition_count(), 6);
  EXPECT_GT(cluster.metadata_version(), version);
  EXPECT_EQ(cluster.find_partition("t", 0), first);
  EXPECT_EQ(cluster.find_partition("t", 1), second);
  EXPECT_EQ(second->high_watermark(), 3);
  EXPECT_NE(cluster.find_partition("t", 5), nullptr);
  EXPECT_EQ(append(cluster, topic, 5, batch_of(1, 10)).value(), 0);

  ASSERT_EQ(cluster.create_topic("u", 4), ErrorCode::kNone);  // 10 partitions in all
  EXPECT_EQ(cluster.add_partitions(*cluster.find_topic("u"), 5), ErrorCode::kPolicyViolation);
  EXPECT_EQ(cluster.find_topic("u")->partitions.size(), 4u);
}

TEST(ClusterLifecycle, DeleteRecordsMovesTheLogStartAndFreesWholeSegments) {
  Cluster cluster(ClusterConfig{.default_partitions = 1,
                                .auto_create = true,
                                .topic_defaults = {.retention_ms = -1, .retention_bytes = -1},
                                .log_memory_bytes = 64 * 1024 * kKiB});
  ASSERT_EQ(cluster.create_topic("t", 1), ErrorCode::kNone);
  StoredTopic& topic = *cluster.find_topic("t");
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(append(cluster, topic, 0, batch_of(5, 400)).has_value());
  const BatchLog& log = topic.partitions[0];
  const std::int64_t memory_before = cluster.log_memory_used();

  EXPECT_EQ(cluster.delete_records(topic, 0, 101).error(), ErrorCode::kOffsetOutOfRange);
  EXPECT_EQ(cluster.delete_records(topic, 0, -2).error(), ErrorCode::kOffsetOutOfRange);
  EXPECT_EQ(cluster.delete_records(topic, 0, 62).value(), 62);  // inside the 13th batch
  EXPECT_EQ(log.log_start_offset(), 62);
  EXPECT_LT(cluster.log_memory_used(), memory_before);
  EXPECT_EQ(cluster.log_memory_used(), static_cast<std::int64_t>(log.memory_bytes()));
  EXPECT_EQ(cluster.delete_records(topic, 0, 10).value(), 62);   // never moves back
  EXPECT_EQ(cluster.delete_records(topic, 0, -1).value(), 100);  // the high watermark
  EXPECT_EQ(log.batch_count(), 0u);
  EXPECT_EQ(cluster.log_memory_used(), static_cast<std::int64_t>(log.memory_bytes()));
  EXPECT_EQ(append(cluster, topic, 0, batch_of(1, 10)).value(), 100);
}

}  // namespace
}  // namespace kgroups::broker
