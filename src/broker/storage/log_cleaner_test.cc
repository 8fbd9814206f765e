// SPDX-License-Identifier: Apache-2.0
#include "broker/storage/log_cleaner.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "broker/storage/cluster.h"
#include "protocol/record_batch.h"
#include "protocol/record_batch_builder.h"
#include "protocol/record_batch_rewriter.h"
#include "protocol/record_compressor.h"

namespace kgroups::broker {
namespace {

using protocol::ByteView;
using protocol::Compression;

constexpr std::int64_t kDeleteRetentionMs = 60000;

std::int64_t wall_clock_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

TopicConfig compacted_config() {
  TopicConfig config;
  config.cleanup_compact = true;
  config.cleanup_delete = false;
  config.segment_bytes = 400;  // a few small batches per segment
  config.delete_retention_ms = kDeleteRetentionMs;
  config.min_cleanable_dirty_ratio = 0.01;
  return config;
}

struct Record {
  std::string key;
  std::optional<std::string> value;  // std::nullopt: a tombstone
};

// A record read back from the log.
struct StoredRecord {
  std::int64_t offset = 0;
  std::optional<std::string> key;
  std::optional<std::string> value;
  std::int64_t timestamp = 0;

  bool operator==(const StoredRecord&) const = default;
};

class Compaction : public ::testing::Test {
 protected:
  Compaction() : cluster_(ClusterConfig{}) {}

  void create(const TopicConfig& config) {
    ASSERT_EQ(cluster_.create_topic("t", 1, config), protocol::ErrorCode::kNone);
  }
  BatchLog& log() { return *cluster_.find_partition("t", 0); }
  StoredTopic& topic() { return *cluster_.find_topic("t"); }

  // Appends one batch of `records`, compressed with `codec`; returns its base offset.
  std::int64_t produce(const std::vector<Record>& records, std::int64_t timestamp = 1000,
                       const protocol::ProducerCodec& codec = {}, std::int64_t producer_id = -1) {
    protocol::RecordBatchBuilder builder;
    if (producer_id >= 0) builder.set_producer(producer_id, 0, sequence_++);
    for (const Record& record : records) {
      std::optional<ByteView> value;
      if (record.value) value = ByteView::of(*record.value);
      builder.add(ByteView::of(record.key), value, timestamp);
    }
    const std::vector<std::uint8_t> batch =
        codec.codec == Compression::kNone
            ? builder.build()
            : protocol::build_compressed_batch(builder, codec.codec, codec.snappy_framing);
    const auto header = protocol::parse_record_batch_header(batch);
    const auto offset =
        cluster_.append(topic(), 0, batch, header->last_offset_delta, header->max_timestamp);
    EXPECT_TRUE(offset.has_value());
    return *offset;
  }

  // Rolls the records above into closed segments: appends unique keys past segment.bytes.
  void roll(int batches = 8) {
    for (int i = 0; i < batches; ++i) {
      produce({{"filler-" + std::to_string(filler_++), std::string(100, 'f')}});
    }
  }

  // 30 gzip batches, each of keys k0..k19 with value "v<round>", then 40 small fillers, so
  // that segments of a few KiB hold many compressed batches and close.
  void produce_gzip_rounds() {
    for (int round = 0; round < 30; ++round) {
      std::vector<Record> batch;
      for (int key = 0; key < 20; ++key) {
        batch.push_back({"k" + std::to_string(key), "v" + std::to_string(round)});
      }
      produce(batch, 1000, {.codec = Compression::kGzip, .name = "gzip"});
    }
    for (int i = 0; i < 40; ++i) produce({{"filler-" + std::to_string(filler_++), "f"}});
  }

  // Every record of the log, decoded.
  std::vector<StoredRecord> records_from(std::int64_t offset) {
    std::vector<StoredRecord> out;
    protocol::RecordBatchRewriter reader(std::size_t{1} << 20);
    for (const StoredBatch& batch : log().batches_from(offset)) {
      const auto header = protocol::parse_record_batch_header(batch.bytes());
      EXPECT_TRUE(header.has_value());
      EXPECT_EQ(header->crc, protocol::compute_batch_crc(batch.bytes()));
      EXPECT_EQ(header->base_offset, batch.base_offset);
      EXPECT_EQ(header->base_offset + header->last_offset_delta, batch.last_offset);
      const auto records = reader.read(batch.bytes());
      EXPECT_TRUE(records.has_value());
      if (!records) continue;
      for (const protocol::RecordEntry& record : *records) {
        StoredRecord stored;
        stored.offset = batch.base_offset + record.offset_delta;
        stored.timestamp = record.timestamp;
        if (record.key) stored.key = std::string(record.key->begin(), record.key->end());
        if (record.value) stored.value = std::string(record.value->begin(), record.value->end());
        out.push_back(stored);
      }
    }
    return out;
  }

  // The records of the test's keys (not the fillers), in offset order.
  std::vector<StoredRecord> keyed_records() {
    std::vector<StoredRecord> out;
    for (const StoredRecord& record : records_from(log().log_start_offset())) {
      if (record.key && record.key->starts_with("filler-")) continue;
      out.push_back(record);
    }
    return out;
  }

  // Runs passes until the cleaner has nothing left to do.
  CleanerPass clean(LogCleaner& cleaner, std::int64_t now_ms) {
    CleanerPass total;
    for (int i = 0; i < 10000; ++i) {
      const CleanerPass pass = cleaner.run_pass(cluster_, now_ms);
      total.bytes_read += pass.bytes_read;
      total.segments_cleaned += pass.segments_cleaned;
      total.partitions_cleaned += pass.partitions_cleaned;
      total.memory_freed += pass.memory_freed;
      total.batches_kept_whole += pass.batches_kept_whole;
      if (!pass.more_work) break;
    }
    return total;
  }

  Cluster cluster_;
  LogCleaner cleaner_{LogCleanerOptions{}};
  int filler_ = 0;
  std::int32_t sequence_ = 0;
};

TEST_F(Compaction, KeepsOnlyTheLatestRecordOfEachKeyAtItsOriginalOffset) {
  create(compacted_config());
  for (int round = 0; round < 3; ++round) {
    for (int key = 0; key < 4; ++key) {
      produce({{"k" + std::to_string(key), "v" + std::to_string(round)}});
    }
  }
  roll();
  const std::int64_t high_watermark = log().high_watermark();
  const CleanerPass pass = clean(cleaner_, wall_clock_ms());
  EXPECT_EQ(pass.partitions_cleaned, 1u);
  EXPECT_GT(pass.memory_freed, 0);
  const std::vector<StoredRecord> expected = {
      {8, "k0", "v2", 1000}, {9, "k1", "v2", 1000}, {10, "k2", "v2", 1000}, {11, "k3", "v2", 1000}};
  EXPECT_EQ(keyed_records(), expected);
  EXPECT_EQ(log().high_watermark(), high_watermark);
  EXPECT_EQ(log().log_start_offset(), 0);
  // The fillers (unique keys) are all still there at their offsets.
  EXPECT_EQ(records_from(12).size(), static_cast<std::size_t>(high_watermark - 12));
}

TEST_F(Compaction, AConsumerAtAnOffsetCompactedAwayGetsTheNextKeptRecord) {
  create(compacted_config());
  for (int round = 0; round < 3; ++round) produce({{"k", "v" + std::to_string(round)}});
  roll();
  clean(cleaner_, wall_clock_ms());
  for (std::int64_t offset = 0; offset <= 2; ++offset) {
    const auto batches = log().batches_from(offset);
    ASSERT_FALSE(batches.empty());
    EXPECT_EQ(batches.front().base_offset, 2);
  }
}

TEST_F(Compaction, LeavesTheActiveSegmentAlone) {
  TopicConfig config = compacted_config();
  config.segment_bytes = 1 << 20;  // everything stays in the active segment
  create(config);
  for (int round = 0; round < 3; ++round) produce({{"k", "v" + std::to_string(round)}});
  roll();
  const CleanerPass pass = clean(cleaner_, wall_clock_ms());
  EXPECT_EQ(pass.segments_cleaned, 0u);
  EXPECT_EQ(keyed_records().size(), 3u);
  EXPECT_EQ(log().closed_segments().size(), 0u);
}

TEST_F(Compaction, AnEmptiedSegmentNextToTheActiveOneLeavesTheActiveSegmentAlone) {
  create(compacted_config());               // segment.bytes 400
  produce({{"k", std::string(300, 'a')}});  // fills the first segment
  produce({{"k", "v1"}});                   // rolls: the active segment starts here
  clean(cleaner_, wall_clock_ms());         // the first segment is emptied and goes
  ASSERT_EQ(log().closed_segments().size(), 0u);
  produce({{"k", "v2"}});  // still in the active segment, which is never cleaned
  clean(cleaner_, wall_clock_ms());
  const std::vector<StoredRecord> expected = {{1, "k", "v1", 1000}, {2, "k", "v2", 1000}};
  EXPECT_EQ(keyed_records(), expected);
}

TEST_F(Compaction, ASegmentClosesAtSegmentBytesNotWhenItsMemoryFills) {
  TopicConfig config = compacted_config();
  config.segment_bytes = 4096;
  create(config);
  std::size_t bytes = 0;
  while (bytes + 200 <= 4096) {
    produce({{"k", std::string(100, 'v')}});
    bytes = log().size_bytes();
    // The 1 KiB and 2 KiB memory segments have filled, yet nothing is closed.
    EXPECT_EQ(log().closed_segments().size(), 0u);
  }
  roll(10);
  EXPECT_GE(log().closed_segments().size(), 1u);
  EXPECT_EQ(log().closed_segments().front().base_offset, 0);
}

TEST_F(Compaction, RemovesTombstonesOnlyDeleteRetentionMsAfterTheirFirstCleaning) {
  create(compacted_config());
  produce({{"k", "v0"}});
  produce({{"k", std::nullopt}});
  produce({{"other", "v"}});
  roll();
  const std::int64_t now = wall_clock_ms();
  clean(cleaner_, now);
  std::vector<StoredRecord> expected = {{1, "k", std::nullopt, 1000}, {2, "other", "v", 1000}};
  EXPECT_EQ(keyed_records(), expected);
  EXPECT_EQ(log().compaction().next_delete_horizon_ms, now + kDeleteRetentionMs);
  EXPECT_FALSE(LogCleaner::is_due(log(), topic().config, now + kDeleteRetentionMs - 1));

  clean(cleaner_, now + kDeleteRetentionMs - 1);
  EXPECT_EQ(keyed_records(), expected);

  ASSERT_TRUE(LogCleaner::is_due(log(), topic().config, now + kDeleteRetentionMs));
  clean(cleaner_, now + kDeleteRetentionMs);
  expected = {{2, "other", "v", 1000}};
  EXPECT_EQ(keyed_records(), expected);
}

TEST_F(Compaction, RewritesCompressedBatchesWithTheirCodecAndAValidCrc) {
  for (const protocol::ProducerCodec& codec : protocol::kProducerCodecs) {
    SCOPED_TRACE(std::string(codec.name));
    Cluster fresh{ClusterConfig{}};
    cluster_ = std::move(fresh);
    create(compacted_config());
    produce({{"a", "1"}, {"b", "2"}, {"a", "3"}, {"c", std::string(300, 'x')}, {"c", "4"}}, 1000,
            codec);
    roll();
    clean(cleaner_, wall_clock_ms());
    const auto batches = log().batches_from(0);
    ASSERT_FALSE(batches.empty());
    const auto header = protocol::parse_record_batch_header(batches.front().bytes());
    ASSERT_TRUE(header.has_value());
    EXPECT_EQ(header->compression(), codec.codec);
    EXPECT_EQ(header->last_offset_delta, 4);  // the batch still ends where it did
    EXPECT_EQ(header->record_count, 3);
    if (codec.snappy_framing == protocol::SnappyFraming::kXerial) {
      EXPECT_EQ(batches.front().bytes()[protocol::kBatchHeaderSize], 0x82);  // xerial magic
    }
    const std::vector<StoredRecord> expected = {
        {1, "b", "2", 1000}, {2, "a", "3", 1000}, {4, "c", "4", 1000}};
    EXPECT_EQ(keyed_records(), expected);  // records_from checks every CRC
  }
}

TEST_F(Compaction, KeepsRecordsYoungerThanMinCompactionLag) {
  TopicConfig config = compacted_config();
  config.min_compaction_lag_ms = 10000;
  create(config);
  const std::int64_t now = wall_clock_ms();
  produce({{"k", "v0"}}, now);
  produce({{"k", "v1"}}, now);
  for (int i = 0; i < 8; ++i) produce({{"filler-" + std::to_string(filler_++), "f"}}, now);
  clean(cleaner_, now + 5000);
  EXPECT_EQ(keyed_records().size(), 2u);
  clean(cleaner_, now + 10001);
  const std::vector<StoredRecord> expected = {{1, "k", "v1", now}};
  EXPECT_EQ(keyed_records(), expected);
}

TEST_F(Compaction, KeepsTheLastBatchOfAProducerAsAnEmptyBatch) {
  create(compacted_config());
  produce({{"k", "v0"}}, 1000, {}, 7);  // offset 0: superseded later
  produce({{"k", "v1"}}, 1000, {}, 7);  // offset 1: the producer's last batch, superseded
  produce({{"k", "v2"}});               // offset 2
  roll();
  clean(cleaner_, wall_clock_ms());
  const auto batches = log().batches_from(0);
  ASSERT_GE(batches.size(), 2u);
  EXPECT_EQ(batches[0].base_offset, 1);
  const auto header = protocol::parse_record_batch_header(batches[0].bytes());
  EXPECT_EQ(header->record_count, 0);
  EXPECT_EQ(header->producer_id, 7);
  EXPECT_EQ(header->base_sequence, 1);
  EXPECT_EQ(batches[1].base_offset, 2);
}

TEST_F(Compaction, DropsRecordsWithoutAKey) {
  create(compacted_config());
  protocol::RecordBatchBuilder builder;
  builder.add(std::nullopt, ByteView::of("no key"), 1000);
  const auto batch = builder.build();
  ASSERT_TRUE(cluster_.append(topic(), 0, batch, 0, 1000).has_value());
  produce({{"k", "v"}});
  roll();
  clean(cleaner_, wall_clock_ms());
  EXPECT_EQ(log().batches_from(0).front().base_offset, 1);
}

TEST_F(Compaction, ASmallBudgetCleansInSeveralPassesToTheSameResult) {
  create(compacted_config());
  for (int round = 0; round < 20; ++round) {
    for (int key = 0; key < 5; ++key) {
      produce({{"k" + std::to_string(key), "v" + std::to_string(round)}});
    }
  }
  roll();
  LogCleaner small{LogCleanerOptions{.bytes_per_pass = 1024}};
  const std::int64_t now = wall_clock_ms();
  const CleanerPass first = small.run_pass(cluster_, now);
  EXPECT_TRUE(first.more_work);
  EXPECT_LE(first.bytes_read, 1024u + 512u);  // the budget, plus at most one segment
  clean(small, now);
  const std::vector<StoredRecord> expected = {{95, "k0", "v19", 1000},
                                              {96, "k1", "v19", 1000},
                                              {97, "k2", "v19", 1000},
                                              {98, "k3", "v19", 1000},
                                              {99, "k4", "v19", 1000}};
  EXPECT_EQ(keyed_records(), expected);
}

TEST_F(Compaction, ABatchThatUnpacksBeyondTheBoundIsKeptWholeAndNotMapped) {
  create(compacted_config());
  produce({{"k0", "old"}, {"k1", "old"}});
  // 400 records: their index alone (96 B each) is beyond a 16 KiB bound.
  std::vector<Record> many;
  for (int i = 0; i < 400; ++i) many.push_back({"k" + std::to_string(i % 2), "new"});
  produce(many, 1000, {.codec = Compression::kGzip, .name = "gzip"});
  produce({{"k0", "newest"}});
  roll();
  LogCleaner bounded{LogCleanerOptions{.max_batch_bytes = 16 << 10}};
  const CleanerPass pass = clean(bounded, wall_clock_ms());
  EXPECT_EQ(pass.partitions_cleaned, 1u);
  EXPECT_GE(pass.batches_kept_whole, 1u);
  const std::vector<StoredRecord> kept = keyed_records();
  // The large batch was not mapped: k1's old record is kept (more than the latest, never
  // less), and the large batch is whole, although "newest" supersedes its k0 records.
  ASSERT_EQ(kept.size(), 1u + 400u + 1u);
  EXPECT_EQ(kept.front().key, "k1");
  EXPECT_EQ(kept.front().value, "old");
  EXPECT_EQ(kept.back().value, "newest");
  // With the default bound the same log is cleaned to the latest records.
  LogCleaner unbounded{LogCleanerOptions{}};
  log().compaction().first_dirty_offset = 0;
  clean(unbounded, wall_clock_ms());
  const std::vector<StoredRecord> latest = keyed_records();
  ASSERT_EQ(latest.size(), 2u);
  EXPECT_EQ(latest[0].key, "k1");
  EXPECT_EQ(latest[0].value, "new");
  EXPECT_EQ(latest[1].value, "newest");
}

TEST_F(Compaction, TheKeyMapBoundIsCheckedAtEveryRecordNotEveryBatch) {
  create(compacted_config());
  std::vector<Record> distinct;
  for (int i = 0; i < 100; ++i) distinct.push_back({"key-" + std::to_string(1000 + i), "v"});
  produce(distinct, 1000, {.codec = Compression::kLz4, .name = "lz4"});
  roll();
  // Room for 10 keys of 8 bytes (+ 64 each): the map stops inside the batch, so the first
  // cleaning covers its first 10 records (a later one, in the same pass, the next 10).
  LogCleaner small_map{LogCleanerOptions{.bytes_per_pass = 1, .max_map_bytes = 10 * (8 + 64)}};
  const std::int64_t now = wall_clock_ms();
  for (int i = 0; i < 100 && small_map.run_pass(cluster_, now).partitions_cleaned == 0; ++i) {
  }
  EXPECT_EQ(log().compaction().first_dirty_offset, 10);
}

TEST_F(Compaction, CleaningPausedInsideASegmentResumesToTheSameResult) {
  TopicConfig config = compacted_config();
  config.segment_bytes = 4 << 10;  // many compressed batches per segment
  create(config);
  produce_gzip_rounds();
  const std::int64_t now = wall_clock_ms();
  // Every pass ends after one batch: the first segment is cleaned over many passes.
  LogCleaner one_batch{LogCleanerOptions{.bytes_per_pass = 1}};
  const CleanerPass first = one_batch.run_pass(cluster_, now);
  EXPECT_TRUE(first.more_work);
  EXPECT_EQ(first.segments_cleaned, 0u);
  const CleanerPass total = clean(one_batch, now);
  EXPECT_EQ(total.partitions_cleaned, 1u);
  const std::vector<StoredRecord> sliced = keyed_records();
  EXPECT_EQ(cluster_.log_memory_used(), static_cast<std::int64_t>(log().memory_bytes()));

  ASSERT_TRUE(cluster_.delete_topic("t"));
  create(config);
  produce_gzip_rounds();
  clean(cleaner_, now);
  EXPECT_EQ(keyed_records(), sliced);
  ASSERT_EQ(sliced.size(), 20u);
  EXPECT_EQ(sliced.front().value, "v29");
}

TEST_F(Compaction, ASegmentDroppedWhileItsCleaningIsPausedIsLeftAndTheRestCleaned) {
  TopicConfig config = compacted_config();
  config.segment_bytes = 4 << 10;
  create(config);
  produce_gzip_rounds();
  const std::int64_t now = wall_clock_ms();
  LogCleaner one_batch{LogCleanerOptions{.bytes_per_pass = 1}};
  // A pass per batch mapped, then two of the first segment's batches cleaned.
  const std::size_t passes = log().batch_count() + 2;
  for (std::size_t i = 0; i < passes; ++i) {
    const CleanerPass pass = one_batch.run_pass(cluster_, now);
    ASSERT_TRUE(pass.more_work);
    ASSERT_EQ(pass.segments_cleaned, 0u);
  }
  // DeleteRecords drops the first segment, the one being rewritten.
  const std::int64_t start = log().closed_segments().at(1).base_offset;
  ASSERT_TRUE(cluster_.delete_records(topic(), 0, start).has_value());
  EXPECT_EQ(cluster_.released_segments().segments(), 1u);  // the cleaner still pins it
  const CleanerPass rest = clean(one_batch, now);
  EXPECT_EQ(rest.partitions_cleaned, 1u);
  EXPECT_EQ(cluster_.released_segments().segments(), 0u);
  EXPECT_EQ(cluster_.log_memory_used(), static_cast<std::int64_t>(log().memory_bytes()));
  for (const StoredRecord& record : keyed_records()) EXPECT_GE(record.offset, start);
}

TEST_F(Compaction, KeepsTheClusterMemoryAccountingExact) {
  create(compacted_config());
  for (int round = 0; round < 20; ++round) {
    for (int key = 0; key < 5; ++key) produce({{"k" + std::to_string(key), "v"}});
  }
  roll();
  const std::int64_t before = cluster_.log_memory_used();
  const CleanerPass pass = clean(cleaner_, wall_clock_ms());
  EXPECT_EQ(cluster_.log_memory_used(), static_cast<std::int64_t>(log().memory_bytes()));
  EXPECT_EQ(cluster_.log_memory_used(), before - pass.memory_freed);
  EXPECT_LT(cluster_.log_memory_used(), before);
  // The log goes on appending and evicting after cleaning.
  produce({{"k0", "after"}});
  EXPECT_EQ(cluster_.log_memory_used(), static_cast<std::int64_t>(log().memory_bytes()));
}

TEST_F(Compaction, IsDueByDirtyRatioOrMaxCompactionLag) {
  TopicConfig config = compacted_config();
  config.min_cleanable_dirty_ratio = 0.9;
  create(config);
  for (int round = 0; round < 3; ++round) produce({{"k", "v"}});
  roll();
  const std::int64_t now = wall_clock_ms();
  EXPECT_TRUE(LogCleaner::is_due(log(), topic().config, now));  // all closed bytes are dirty
  clean(cleaner_, now);
  EXPECT_EQ(LogCleaner::dirty_ratio(log(), topic().config, now), 0.0);
  roll(8);  // new dirty segments, a small share of the log
  const double ratio = LogCleaner::dirty_ratio(log(), topic().config, now);
  EXPECT_GT(ratio, 0.0);
  EXPECT_LT(ratio, 0.9);
  EXPECT_FALSE(LogCleaner::is_due(log(), topic().config, now));
  topic().config.max_compaction_lag_ms = now - 1000 - 1;  // the fillers' timestamps are 1000
  EXPECT_TRUE(LogCleaner::is_due(log(), topic().config, now));
}

TEST_F(Compaction, IgnoresTopicsThatAreNotCompacted) {
  TopicConfig config = compacted_config();
  config.cleanup_compact = false;
  config.cleanup_delete = true;
  create(config);
  for (int round = 0; round < 3; ++round) produce({{"k", "v"}});
  roll(40);
  const CleanerPass pass = clean(cleaner_, wall_clock_ms());
  EXPECT_EQ(pass.bytes_read, 0u);
  EXPECT_EQ(keyed_records().size(), 3u);
}

}  // namespace
}  // namespace kgroups::broker
