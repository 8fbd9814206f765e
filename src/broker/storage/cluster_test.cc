// SPDX-License-Identifier: Apache-2.0
#include "broker/storage/cluster.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "protocol/record_batch.h"
#include "protocol/record_batch_builder.h"

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;

TEST(Cluster, CreatesTopicsWithTheirPartitionCount) {
  Cluster cluster(6, true);
  EXPECT_EQ(cluster.create_topic("orders", 3), ErrorCode::kNone);
  ASSERT_NE(cluster.find_topic("orders"), nullptr);
  EXPECT_EQ(cluster.find_topic("orders")->partitions.size(), 3u);
  EXPECT_NE(cluster.find_partition("orders", 2), nullptr);
  EXPECT_EQ(cluster.find_partition("orders", 3), nullptr);
  EXPECT_EQ(cluster.find_partition("orders", -1), nullptr);
  EXPECT_EQ(cluster.find_partition("missing", 0), nullptr);
}

TEST(Cluster, RejectsDuplicateTopicsBadNamesAndPartitionCountsAndChangesNothing) {
  Cluster cluster(6, true);
  ASSERT_EQ(cluster.create_topic("orders", 3), ErrorCode::kNone);
  EXPECT_EQ(cluster.create_topic("orders", 5), ErrorCode::kTopicAlreadyExists);
  EXPECT_EQ(cluster.find_topic("orders")->partitions.size(), 3u);
  EXPECT_EQ(cluster.create_topic("bad name", 1), ErrorCode::kInvalidTopicException);
  EXPECT_EQ(cluster.create_topic("", 1), ErrorCode::kInvalidTopicException);
  EXPECT_EQ(cluster.create_topic("..", 1), ErrorCode::kInvalidTopicException);
  EXPECT_EQ(cluster.create_topic(std::string(250, 'a'), 1), ErrorCode::kInvalidTopicException);
  EXPECT_EQ(cluster.create_topic(std::string(249, 'a'), 1), ErrorCode::kNone);
  EXPECT_EQ(cluster.create_topic("zero", 0), ErrorCode::kInvalidPartitions);
  EXPECT_EQ(cluster.topics().size(), 2u);
}

TEST(Cluster, AutoCreatesUnknownTopicsWithTheDefaultPartitionCountOnlyWhenEnabled) {
  Cluster enabled(4, true);
  StoredTopic* topic = enabled.find_or_create_topic("new.topic_1");
  ASSERT_NE(topic, nullptr);
  EXPECT_EQ(topic->partitions.size(), 4u);
  EXPECT_EQ(enabled.find_or_create_topic("new.topic_1"), topic);
  EXPECT_EQ(enabled.find_or_create_topic("bad/name"), nullptr);

  Cluster disabled(4, false);
  EXPECT_EQ(disabled.find_or_create_topic("new"), nullptr);
  EXPECT_TRUE(disabled.topics().empty());
}

constexpr std::int64_t kKiB = 1024;
constexpr std::int64_t kHourMs = 3600000;

std::vector<std::uint8_t> batch_of(std::size_t value_bytes, std::int64_t timestamp) {
  protocol::RecordBatchBuilder builder;
  const std::string value(value_bytes, 'v');
  builder.add(protocol::ByteView::of("k"), protocol::ByteView::of(value), timestamp);
  return builder.build();
}

protocol::Result<std::int64_t> append(Cluster& cluster, StoredTopic& topic, std::int32_t partition,
                                      const std::vector<std::uint8_t>& batch) {
  const auto header = protocol::parse_record_batch_header(batch);
  return cluster.append(topic, partition, batch, header->last_offset_delta, header->max_timestamp);
}

TEST(Cluster, TopicAndPartitionLimitsRefuseAndCreateNothing) {
  Cluster cluster(ClusterConfig{.default_partitions = 2,
                                .auto_create = true,
                                .topic_defaults = {},
                                .max_topics = 3,
                                .max_partitions = 10,
                                .max_partitions_per_topic = 6});
  EXPECT_EQ(cluster.create_topic("seven", 7), ErrorCode::kInvalidPartitions);
  EXPECT_EQ(cluster.create_topic("six", 6), ErrorCode::kNone);
  EXPECT_EQ(cluster.check_new_topic("five", 5), ErrorCode::kPolicyViolation);  // 11 in all
  EXPECT_EQ(cluster.create_topic("five", 5), ErrorCode::kPolicyViolation);
  EXPECT_EQ(cluster.create_topic("two", 2), ErrorCode::kNone);
  EXPECT_NE(cluster.find_or_create_topic("auto"), nullptr);  // 2 more: 10 in all, 3 topics
  EXPECT_EQ(cluster.create_topic("one", 1), ErrorCode::kPolicyViolation);  // a 4th topic
  EXPECT_EQ(cluster.find_or_create_topic("auto2"), nullptr);
  EXPECT_EQ(cluster.topics().size(), 3u);
  EXPECT_EQ(cluster.partition_count(), 10);
}

TEST(Cluster, AppendEvictsTheOldestSegmentsOfAllPartitionsToStayWithinTheLogMemory) {
  Cluster cluster(ClusterConfig{.default_partitions = 2,
                                .auto_create = true,
                                .topic_defaults = {.retention_ms = -1, .retention_bytes = -1},
                                .log_memory_bytes = 64 * kKiB});
  ASSERT_EQ(cluster.create_topic("t", 2), ErrorCode::kNone);
  StoredTopic& topic = *cluster.find_topic("t");
  const std::vector<std::uint8_t> batch = batch_of(3000, 1000);
  // Partition 0 first, then partition 1: eviction takes partition 0's oldest data first.
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(append(cluster, topic, 0, batch).has_value());
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(append(cluster, topic, 1, batch).has_value());
    EXPECT_LE(cluster.log_memory_used(), 64 * kKiB);
  }
  const BatchLog& first = topic.partitions[0];
  const BatchLog& second = topic.partitions[1];
  EXPECT_GT(first.log_start_offset(), 0);
  EXPECT_EQ(second.high_watermark(), 20);
  EXPECT_EQ(cluster.log_memory_used(),
            static_cast<std::int64_t>(first.memory_bytes() + second.memory_bytes()));
}

TEST(Cluster, ABatchLargerThanTheLogMemoryIsRefusedWithAStorageErrorAndNotStored) {
  Cluster cluster(ClusterConfig{.default_partitions = 1,
                                .auto_create = true,
                                .topic_defaults = {},
                                .log_memory_bytes = 16 * kKiB});
  ASSERT_EQ(cluster.create_topic("t", 1), ErrorCode::kNone);
  StoredTopic& topic = *cluster.find_topic("t");
  const auto result = append(cluster, topic, 0, batch_of(20000, 1000));
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error(), ErrorCode::kKafkaStorageError);
  EXPECT_EQ(topic.partitions[0].high_watermark(), 0);
  EXPECT_EQ(cluster.log_memory_used(), 0);
}

TEST(Cluster, AppendAppliesTheTopicsRetentionBytes) {
  Cluster cluster(6, true);
  ASSERT_EQ(cluster.create_topic("small", 1,
                                 TopicConfig{.retention_ms = -1, .retention_bytes = 8 * kKiB}),
            ErrorCode::kNone);
  StoredTopic& topic = *cluster.find_topic("small");
  const std::vector<std::uint8_t> batch = batch_of(1000, 1000);
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(append(cluster, topic, 0, batch).has_value());
  const BatchLog& log = topic.partitions[0];
  EXPECT_GT(log.log_start_offset(), 0);
  EXPECT_GE(log.size_bytes(), 8u * 1024u);
  EXPECT_LT(log.size_bytes(), 8u * 1024u + 2 * 1024u + batch.size());  // segments of ~2 KiB
  EXPECT_EQ(cluster.log_memory_used(), static_cast<std::int64_t>(log.memory_bytes()));
}

TEST(Cluster, TimeRetentionDropsSegmentsOlderThanEachTopicsRetentionMs) {
  Cluster cluster(6, true);
  ASSERT_EQ(cluster.create_topic("hour", 1, TopicConfig{.retention_ms = kHourMs}),
            ErrorCode::kNone);
  ASSERT_EQ(cluster.create_topic("forever", 1, TopicConfig{.retention_ms = -1}), ErrorCode::kNone);
  const std::int64_t now = 10 * kHourMs;
  for (const char* name : {"hour", "forever"}) {
    StoredTopic& topic = *cluster.find_topic(name);
    ASSERT_TRUE(append(cluster, topic, 0, batch_of(100, now - 2 * kHourMs)).has_value());
  }
  const DroppedSegments dropped = cluster.apply_time_retention(now);
  EXPECT_EQ(dropped.segments, 1u);
  EXPECT_EQ(dropped.partitions, 1u);
  EXPECT_EQ(cluster.find_topic("hour")->partitions[0].log_start_offset(), 1);
  EXPECT_EQ(cluster.find_topic("forever")->partitions[0].log_start_offset(), 0);
  EXPECT_EQ(cluster.log_memory_used(),
            static_cast<std::int64_t>(cluster.find_topic("forever")->partitions[0].memory_bytes()));
}

TEST(Cluster, SegmentsDroppedWhilePinnedStayChargedAndAppendsEvictOthersInstead) {
  Cluster cluster(ClusterConfig{.default_partitions = 1,
                                .auto_create = true,
                                .topic_defaults = {.retention_ms = -1, .retention_bytes = -1},
                                .log_memory_bytes = 64 * kKiB});
  ASSERT_EQ(cluster.create_topic("pinned", 1), ErrorCode::kNone);
  const std::vector<std::uint8_t> batch = batch_of(3000, 1000);
  for (int i = 0; i < 8; ++i) {
    ASSERT_TRUE(append(cluster, *cluster.find_topic("pinned"), 0, batch).has_value());
  }
  BatchLog& log = *cluster.find_partition("pinned", 0);
  SegmentPins unread_response;  // a Fetch answer its client never reads
  log.pin_segments(0, log.high_watermark() - 1, unread_response);
  const std::int64_t pinned_memory = cluster.log_memory_used();
  ASSERT_GT(pinned_memory, 16 * kKiB);

  // The topic is deleted: its segments stay allocated for the response, and counted.
  ASSERT_TRUE(cluster.delete_topic("pinned"));
  EXPECT_GT(cluster.released_segments().segments(), 0u);
  EXPECT_GE(cluster.log_memory_used(), pinned_memory - 8 * kKiB);  // the index is freed

  // Refilling another topic keeps everything, pinned segments included, within the share.
  ASSERT_EQ(cluster.create_topic("refill", 1), ErrorCode::kNone);
  for (int i = 0; i < 40; ++i) {
    ASSERT_TRUE(append(cluster, *cluster.find_topic("refill"), 0, batch).has_value());
    EXPECT_LE(cluster.log_memory_used(), 64 * kKiB);
  }
  const BatchLog& refill = *cluster.find_partition("refill", 0);
  EXPECT_LE(static_cast<std::int64_t>(refill.memory_bytes()),
            64 * kKiB - cluster.released_segments().bytes());

  // The response is written: the share is the logs' again.
  unread_response.clear();
  EXPECT_EQ(cluster.released_segments().bytes(), 0);
  EXPECT_EQ(cluster.log_memory_used(), static_cast<std::int64_t>(refill.memory_bytes()));
}

TEST(Cluster, AppendsThatPinnedSegmentsLeaveNoRoomForGetAStorageErrorNamingThem) {
  Cluster cluster(ClusterConfig{.default_partitions = 1,
                                .auto_create = true,
                                .topic_defaults = {.retention_ms = -1, .retention_bytes = -1},
                                .log_memory_bytes = 64 * kKiB});
  ASSERT_EQ(cluster.create_topic("pinned", 1), ErrorCode::kNone);
  const std::vector<std::uint8_t> small = batch_of(3000, 1000);
  for (int i = 0; i < 18; ++i) {
    ASSERT_TRUE(append(cluster, *cluster.find_topic("pinned"), 0, small).has_value());
  }
  SegmentPins unread_response;
  BatchLog& log = *cluster.find_partition("pinned", 0);
  log.pin_segments(0, log.high_watermark() - 1, unread_response);
  ASSERT_TRUE(cluster.delete_topic("pinned"));
  const std::int64_t held = cluster.released_segments().bytes();
  ASSERT_GT(held, 32 * kKiB);
  ASSERT_EQ(cluster.create_topic("big", 1), ErrorCode::kNone);
  // More than the share leaves beside the pinned segments: refused, nothing stored.
  const std::vector<std::uint8_t> large =
      batch_of(static_cast<std::size_t>(64 * kKiB - held) + 1024, 1000);
  const auto refused = append(cluster, *cluster.find_topic("big"), 0, large);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error(), ErrorCode::kKafkaStorageError);
  EXPECT_EQ(cluster.find_partition("big", 0)->high_watermark(), 0);
  // Once the response is written it fits.
  unread_response.clear();
  EXPECT_TRUE(append(cluster, *cluster.find_topic("big"), 0, large).has_value());
}

}  // namespace
}  // namespace kgroups::broker
