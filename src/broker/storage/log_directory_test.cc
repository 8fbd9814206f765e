// SPDX-License-Identifier: Apache-2.0
//
// The log directory (--log-dirs): what a restart brings back, and what recovery does with a
// log a crash left torn, corrupt or mid-compaction (docs/STORAGE.md).
#include "broker/storage/log_directory.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "broker/storage/batch_log.h"
#include "broker/storage/cluster.h"
#include "broker/storage/producer_registry.h"
#include "protocol/record_batch_builder.h"

namespace kgroups::broker {
namespace {

namespace fs = std::filesystem;
using protocol::ErrorCode;

std::vector<std::uint8_t> batch_of(const std::string& value, std::int64_t producer_id = -1,
                                   std::int32_t base_sequence = -1) {
  protocol::RecordBatchBuilder builder;
  if (producer_id >= 0) builder.set_producer(producer_id, 0, base_sequence);
  builder.add(protocol::ByteView::of("k"), protocol::ByteView::of(value), 1000);
  return builder.build();
}

std::vector<std::uint8_t> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Every file under `root` and its bytes.
std::map<std::string, std::vector<std::uint8_t>> snapshot(const fs::path& root) {
  std::map<std::string, std::vector<std::uint8_t>> files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.is_regular_file()) {
      files[fs::relative(entry.path(), root).string()] = read_file(entry.path());
    }
  }
  return files;
}

// One broker's storage on a log directory: restored when made; destroyed without close()
// it is a killed broker (nothing flushed, trimmed or checkpointed).
struct Storage {
  explicit Storage(const fs::path& path)
      : directory(std::make_unique<LogDirectory>(
            LogDirectoryOptions{.path = path, .cluster_id = "test", .node_id = 0})) {
    cluster.set_log_directory(directory.get());
    report = directory->restore(cluster, producers);
  }
  BatchLog& log(const std::string& topic, std::int32_t partition) {
    return *cluster.find_partition(topic, partition);
  }
  std::unique_ptr<LogDirectory> directory;
  Cluster cluster{ClusterConfig{}};
  ProducerRegistry producers{1000, 100000};
  RecoveryReport report;
};

class LogDirectoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("kgroups-log-directory-" + std::to_string(std::random_device{}()));
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path path() const { return root_ / "logs"; }
  fs::path root_;
};

// A topic whose segments hold one ~600-byte batch each (segment.bytes 1024).
void create_small_segment_topic(Storage& storage, const std::string& name) {
  ASSERT_EQ(storage.cluster.create_topic(name, 1), ErrorCode::kNone);
  StoredTopic& topic = *storage.cluster.find_topic(name);
  TopicConfigValues values{{"segment.bytes", "1024"}};
  std::string error;
  const auto config = resolve_topic_config(storage.cluster.config().topic_defaults, values, error);
  ASSERT_TRUE(config) << error;
  storage.cluster.set_topic_config(topic, *config, values);
}

TEST_F(LogDirectoryTest, ACleanRestartKeepsTopicsIdsConfigsRecordsAndLogStartOffsets) {
  protocol::Uuid id{};
  std::vector<std::vector<std::uint8_t>> sent;
  {
    Storage storage(path());
    ASSERT_EQ(storage.cluster.create_topic("orders", 2), ErrorCode::kNone);
    StoredTopic& topic = *storage.cluster.find_topic("orders");
    id = topic.id;
    TopicConfigValues values{{"retention.ms", "123456"}};
    std::string error;
    storage.cluster.set_topic_config(
        topic, *resolve_topic_config(storage.cluster.config().topic_defaults, values, error),
        values);
    for (int i = 0; i < 3; ++i) {
      sent.push_back(batch_of("value-" + std::to_string(i)));
      ASSERT_TRUE(storage.cluster.append(topic, 0, sent.back(), 0, 1000));
    }
    ASSERT_TRUE(storage.cluster.append(topic, 1, batch_of("other"), 0, 1000));
    ASSERT_EQ(*storage.cluster.delete_records(topic, 0, 1), 1);
    storage.directory->close(storage.cluster);
  }
  Storage restarted(path());
  const StoredTopic* topic = restarted.cluster.find_topic("orders");
  ASSERT_NE(topic, nullptr);
  EXPECT_EQ(topic->id, id);
  EXPECT_EQ(topic->partitions.size(), 2U);
  EXPECT_EQ(topic->config.retention_ms, 123456);
  EXPECT_EQ(topic->set_configs.at("retention.ms"), "123456");
  const BatchLog& log = topic->partitions[0];
  EXPECT_EQ(log.log_start_offset(), 1);
  EXPECT_EQ(log.high_watermark(), 3);
  const auto batches = log.batches_from(1);
  ASSERT_EQ(batches.size(), 2U);
  for (std::size_t i = 0; i < batches.size(); ++i) {
    // Byte for byte as sent, but for the base offset the log wrote in.
    const auto stored = batches[i].bytes();
    ASSERT_EQ(stored.size(), sent[i + 1].size());
    EXPECT_TRUE(std::equal(stored.begin() + 8, stored.end(), sent[i + 1].begin() + 8));
    EXPECT_EQ(batches[i].base_offset, static_cast<std::int64_t>(i + 1));
  }
  EXPECT_EQ(topic->partitions[1].high_watermark(), 1);
  EXPECT_EQ(restarted.report.truncations, 0U);
  // The records live in files: only their index counts in memory.
  EXPECT_LT(restarted.cluster.log_memory_used(), 4096);
  for (const char* file :
       {"meta.properties", "kgroups-metadata.json", "recovery-point-offset-checkpoint",
        "log-start-offset-checkpoint", "orders-0/00000000000000000000.log",
        "orders-0/00000000000000000000.index", "orders-0/00000000000000000000.timeindex",
        "orders-0/partition.metadata", "orders-0/leader-epoch-checkpoint"}) {
    EXPECT_TRUE(fs::exists(path() / file)) << file;
  }
}

TEST_F(LogDirectoryTest, ARestartWithoutDamageChangesNoFile) {
  {
    Storage storage(path());
    create_small_segment_topic(storage, "events");
    StoredTopic& topic = *storage.cluster.find_topic("events");
    for (int i = 0; i < 4; ++i) {
      ASSERT_TRUE(storage.cluster.append(topic, 0, batch_of(std::string(600, 'a' + i)), 0, 1000));
    }
    storage.directory->close(storage.cluster);
  }
  const auto before = snapshot(path());
  {
    Storage restarted(path());
    EXPECT_EQ(restarted.report.segments, 4U);
    EXPECT_EQ(restarted.report.indexes_rebuilt, 0U);
    EXPECT_EQ(restarted.report.bytes_checked, 0);  // all below the recovery points
    restarted.directory->close(restarted.cluster);
  }
  EXPECT_EQ(snapshot(path()), before);
}

TEST_F(LogDirectoryTest, AKilledBrokersReservedTailIsTrimmedAndEveryRecordKept) {
  std::size_t bytes = 0;
  {
    Storage storage(path());
    ASSERT_EQ(storage.cluster.create_topic("events", 1), ErrorCode::kNone);
    StoredTopic& topic = *storage.cluster.find_topic("events");
    for (int i = 0; i < 5; ++i) {
      const auto batch = batch_of("v" + std::to_string(i));
      bytes += batch.size();
      ASSERT_TRUE(storage.cluster.append(topic, 0, batch, 0, 1000));
    }
    // Killed: the segment file still has its reserved, zeroed tail.
    EXPECT_GT(fs::file_size(path() / "events-0/00000000000000000000.log"), bytes);
  }
  Storage restarted(path());
  EXPECT_EQ(restarted.log("events", 0).high_watermark(), 5);
  EXPECT_EQ(restarted.report.truncations, 0U);
  EXPECT_EQ(fs::file_size(path() / "events-0/00000000000000000000.log"), bytes);
  // The next append goes to a new segment, after the recovered one.
  StoredTopic& topic = *restarted.cluster.find_topic("events");
  EXPECT_EQ(*restarted.cluster.append(topic, 0, batch_of("after"), 0, 1000), 5);
  EXPECT_TRUE(fs::exists(path() / "events-0/00000000000000000005.log"));
}

TEST_F(LogDirectoryTest, ALastBatchTornAtAnyByteIsCutAndEverythingBeforeItServed) {
  std::size_t last_start = 0;
  std::size_t end = 0;
  {
    Storage storage(path());
    ASSERT_EQ(storage.cluster.create_topic("events", 1), ErrorCode::kNone);
    StoredTopic& topic = *storage.cluster.find_topic("events");
    for (int i = 0; i < 3; ++i) {
      const auto batch = batch_of("value-" + std::to_string(i));
      last_start = end;
      end += batch.size();
      ASSERT_TRUE(storage.cluster.append(topic, 0, batch, 0, 1000));
    }
    storage.directory->close(storage.cluster);
  }
  for (std::size_t cut = last_start + 1; cut < end; ++cut) {
    const fs::path copy = root_ / ("cut-" + std::to_string(cut));
    fs::copy(path(), copy, fs::copy_options::recursive);
    const fs::path segment = copy / "events-0/00000000000000000000.log";
    fs::resize_file(segment, cut);
    const auto left = read_file(segment);
    // A piece of only zero bytes (the base offset's high bytes) reads as reserved space.
    const bool zeros = std::all_of(left.begin() + static_cast<std::ptrdiff_t>(last_start),
                                   left.end(), [](std::uint8_t byte) { return byte == 0; });
    {
      Storage restarted(copy);
      const BatchLog& log = restarted.log("events", 0);
      EXPECT_EQ(log.high_watermark(), 2) << "cut at byte " << cut;
      EXPECT_EQ(log.batches_from(0).size(), 2U);
      EXPECT_EQ(restarted.report.truncations, zeros ? 0U : 1U);
      EXPECT_EQ(restarted.report.bytes_cut,
                zeros ? 0 : static_cast<std::int64_t>(cut - last_start));
    }
    EXPECT_EQ(fs::file_size(copy / "events-0/00000000000000000000.log"), last_start);
    fs::remove_all(copy);
  }
}

TEST_F(LogDirectoryTest, AFlippedByteTruncatesThereAndDropsTheSegmentsAfterIt) {
  {
    Storage storage(path());
    create_small_segment_topic(storage, "events");
    StoredTopic& topic = *storage.cluster.find_topic("events");
    for (int i = 0; i < 3; ++i) {
      ASSERT_TRUE(storage.cluster.append(topic, 0, batch_of(std::string(600, 'a' + i)), 0, 1000));
    }
    // Killed before any checkpoint: every batch is beyond the recovery point.
  }
  const fs::path second = path() / "events-0/00000000000000000001.log";
  ASSERT_TRUE(fs::exists(second));
  {
    std::fstream file(second, std::ios::binary | std::ios::in | std::ios::out);
    file.seekp(300);
    file.put('X');
  }
  Storage restarted(path());
  const BatchLog& log = restarted.log("events", 0);
  EXPECT_EQ(log.high_watermark(), 1);
  ASSERT_EQ(log.batches_from(0).size(), 1U);
  EXPECT_EQ(restarted.report.truncations, 1U);
  EXPECT_FALSE(fs::exists(second));
  EXPECT_FALSE(fs::exists(path() / "events-0/00000000000000000002.log"));
  EXPECT_TRUE(fs::exists(path() / "events-0/00000000000000000000.log"));
}

TEST_F(LogDirectoryTest, ACompactionKilledMidSwapRecoversTheOldSegmentOrTheNewNeverAMix) {
  std::vector<std::uint8_t> first_batch;
  {
    Storage storage(path());
    create_small_segment_topic(storage, "compacted");
    StoredTopic& topic = *storage.cluster.find_topic("compacted");
    // Two batches in the first segment (300 bytes each), one in the next.
    for (int i = 0; i < 3; ++i) {
      ASSERT_TRUE(storage.cluster.append(topic, 0, batch_of(std::string(400, 'a' + i)), 0, 1000));
    }
    storage.directory->close(storage.cluster);
  }
  const fs::path folder = path() / "compacted-0";
  const auto old_segment = read_file(folder / "00000000000000000000.log");
  const fs::path segment = folder / "00000000000000000000.log";
  {
    Storage probe(path());
    ASSERT_EQ(probe.log("compacted", 0).batches_from(0).front().last_offset, 0);
    const auto kept = probe.log("compacted", 0).batches_from(1).front().bytes();
    first_batch.assign(kept.begin(), kept.end());  // the "cleaned" segment keeps offset 1 only
    probe.directory->close(probe.cluster);
  }
  const auto write = [](const fs::path& file, const std::vector<std::uint8_t>& bytes) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
  };
  // Killed before the swap: the .cleaned file goes, the old segment stays whole.
  write(folder / "00000000000000000000.log.cleaned", first_batch);
  {
    Storage restarted(path());
    EXPECT_FALSE(fs::exists(folder / "00000000000000000000.log.cleaned"));
    EXPECT_EQ(read_file(segment), old_segment);
    restarted.directory->close(restarted.cluster);
  }
  // Killed after the swap file was committed (the old segment still there, or already gone):
  // the swap completes.
  for (const bool old_deleted : {false, true}) {
    write(folder / "00000000000000000000.log.swap", first_batch);
    if (old_deleted) fs::remove(segment);
    Storage restarted(path());
    EXPECT_EQ(restarted.report.swaps_completed, 1U);
    EXPECT_FALSE(fs::exists(folder / "00000000000000000000.log.swap"));
    EXPECT_EQ(read_file(segment), first_batch);
    const BatchLog& log = restarted.log("compacted", 0);
    ASSERT_EQ(log.batches_from(0).size(), 2U);  // offset 1 from the cleaned, 2 after it
    EXPECT_EQ(log.batches_from(0)[0].base_offset, 1);
    restarted.directory->close(restarted.cluster);
    write(segment, old_segment);  // back to the uncleaned segment for the next case
  }
}

TEST_F(LogDirectoryTest, AnAppendTheDiskCannotTakeGetsAStorageErrorAndChangesNothing) {
  Storage storage(path());
  ASSERT_EQ(storage.cluster.create_topic("events", 1), ErrorCode::kNone);
  StoredTopic& topic = *storage.cluster.find_topic("events");
  ASSERT_TRUE(storage.cluster.append(topic, 0, batch_of("first"), 0, 1000));
  // A file size limit stands in for a full disk: reserving more space fails (EFBIG).
  rlimit before{};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &before), 0);
  const auto previous_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit limited = before;
  limited.rlim_cur = 128 * 1024;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &limited), 0);
  const auto big = batch_of(std::string(200 * 1024, 'x'));
  const auto refused = storage.cluster.append(topic, 0, big, 0, 1000);
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &before), 0);
  std::signal(SIGXFSZ, previous_handler);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error(), ErrorCode::kKafkaStorageError);
  EXPECT_EQ(storage.log("events", 0).high_watermark(), 1);
  // Space is back: the broker goes on.
  EXPECT_EQ(*storage.cluster.append(topic, 0, big, 0, 1000), 1);
}

TEST_F(LogDirectoryTest, IdempotentProducersGoOnAfterARestartAndDuplicatesAreStillFound) {
  {
    Storage storage(path());
    ASSERT_EQ(storage.cluster.create_topic("events", 1), ErrorCode::kNone);
    StoredTopic& topic = *storage.cluster.find_topic("events");
    ASSERT_TRUE(storage.cluster.append(topic, 0, batch_of("a", 7, 0), 0, 1000));
    ASSERT_TRUE(storage.cluster.append(topic, 0, batch_of("b", 7, 1), 0, 1000));
  }
  Storage restarted(path());
  ASSERT_NE(restarted.producers.find(7), nullptr);
  EXPECT_FALSE(restarted.producers.find(7)->transactional);
  EXPECT_GT(restarted.producers.issue(false), 7);  // new ids never reuse a logged one
  const ProducerStateTable& state = restarted.log("events", 0).producers();
  EXPECT_EQ(state.check(7, 0, 1, 1).duplicate_base_offset, 1);
  EXPECT_EQ(state.check(7, 0, 2, 2).error, ErrorCode::kNone);
  EXPECT_EQ(state.check(7, 0, 5, 5).error, ErrorCode::kOutOfOrderSequenceNumber);
}

TEST_F(LogDirectoryTest, AProducerIdIssuedBeforeARestartIsNeverIssuedAgainAndItsOwnerMayWrite) {
  std::int64_t unused_id = -1;
  std::int64_t written_id = -1;
  {
    Storage storage(path());
    ASSERT_EQ(storage.cluster.create_topic("events", 1), ErrorCode::kNone);
    written_id = storage.producers.issue(false);
    unused_id = storage.producers.issue(false);  // its producer writes only after the restart
    ASSERT_TRUE(storage.cluster.append(*storage.cluster.find_topic("events"), 0,
                                       batch_of("a", written_id, 0), 0, 1000));
  }  // killed
  Storage restarted(path());
  EXPECT_EQ(restarted.producers.find(unused_id), nullptr);  // no batch names it
  const std::int64_t next = restarted.producers.issue(false);
  EXPECT_GT(next, unused_id);
  EXPECT_GT(next, written_id);
  EXPECT_TRUE(restarted.producers.issued_before_restart(unused_id));  // may write (tested
  // through Produce's checks in transactions/producer_writes_restart_test.cc)
  EXPECT_FALSE(restarted.producers.issued_before_restart(next));
}

TEST_F(LogDirectoryTest, AnUnreadableProducerIdBlockStopsTheStartWithTheReason) {
  {
    Storage storage(path());
    (void)storage.producers.issue(false);
  }
  std::ofstream(path() / "kgroups-producer-ids.json") << "{\"block_end\": ";
  try {
    Storage restarted(path());
    FAIL() << "a broker started without knowing which producer ids it issued";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("kgroups-producer-ids.json"), std::string::npos);
  }
}

TEST_F(LogDirectoryTest, FlushMessagesMarksTheLogForTheNextGroupFlushInsteadOfFlushingInline) {
  Storage storage(path());
  int scheduled = 0;
  storage.directory->on_flush_requested([&] { ++scheduled; });
  ASSERT_EQ(storage.cluster.create_topic("events", 2), ErrorCode::kNone);
  StoredTopic& topic = *storage.cluster.find_topic("events");
  TopicConfigValues values{{"flush.messages", "1"}};
  std::string error;
  const auto config = resolve_topic_config(storage.cluster.config().topic_defaults, values, error);
  ASSERT_TRUE(config) << error;
  storage.cluster.set_topic_config(topic, *config, values);
  for (int producer = 0; producer < 3; ++producer) {  // three producers in one turn
    ASSERT_TRUE(
        storage.cluster.append(topic, 0, batch_of("v" + std::to_string(producer)), 0, 1000));
  }
  const BatchLog& written = storage.log("events", 0);
  const BatchLog& untouched = storage.log("events", 1);
  EXPECT_TRUE(LogDirectory::awaits_flush(written));
  EXPECT_FALSE(LogDirectory::awaits_flush(untouched));
  EXPECT_EQ(written.files()->flush_state().recovery_point, 0);  // not flushed yet
  EXPECT_EQ(scheduled, 1);  // one round asked for, not one per append
  EXPECT_EQ(storage.directory->flush_requested(), 1U);
  EXPECT_EQ(written.files()->flush_state().recovery_point, 3);
  EXPECT_FALSE(LogDirectory::awaits_flush(written));
  EXPECT_EQ(storage.directory->flush_requested(), 0U);  // nothing left
}

TEST_F(LogDirectoryTest, ASecondBrokerOnTheSameFolderIsRefusedWithTheReason) {
  Storage first(path());
  try {
    LogDirectory second(LogDirectoryOptions{.path = path(), .cluster_id = "test", .node_id = 0});
    FAIL() << "a second broker opened the same log directory";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("in use by another running broker"), std::string::npos)
        << e.what();
  }
}

TEST_F(LogDirectoryTest, DeletingATopicDeletesItsFolders) {
  Storage storage(path());
  ASSERT_EQ(storage.cluster.create_topic("gone", 2), ErrorCode::kNone);
  ASSERT_TRUE(fs::exists(path() / "gone-1"));
  EXPECT_TRUE(storage.cluster.delete_topic("gone"));
  EXPECT_FALSE(fs::exists(path() / "gone-0"));
  EXPECT_FALSE(fs::exists(path() / "gone-1"));
}

}  // namespace
}  // namespace kgroups::broker
