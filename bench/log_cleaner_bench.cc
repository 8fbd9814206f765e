// SPDX-License-Identifier: Apache-2.0
//
// Log compaction throughput: LogCleaner cleaning a 16 MiB partition of a compacted topic
// (batches of 10 records: 16-byte keys, 100-byte values; 1 MiB segments, the last one
// active), with the cleaner's default pass budget (1 MiB, passes run back to back), against
// a plain copy of the same closed segments' bytes into fresh memory in the same run: the
// least any rewrite of them costs. Args: keys in the key space (1/10 of the records: 90% of
// them are superseded; or as many as records: nothing is removed), codec (0 none, 3 lz4,
// 4 zstd). Bytes processed are the closed segments' bytes before cleaning.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "broker/storage/cluster.h"
#include "broker/storage/log_cleaner.h"
#include "protocol/record_batch.h"
#include "protocol/record_batch_builder.h"
#include "protocol/record_compressor.h"

namespace kgroups::bench {
namespace {

using protocol::ByteView;

constexpr std::size_t kLogBytes = std::size_t{16} << 20;
constexpr int kRecordsPerBatch = 10;

struct CompactedLog {
  std::unique_ptr<broker::Cluster> cluster;
  std::size_t closed_bytes = 0;
};

CompactedLog make_log(std::int64_t keys, protocol::Compression codec) {
  CompactedLog made{std::make_unique<broker::Cluster>(broker::ClusterConfig{}), 0};
  broker::TopicConfig config;
  config.cleanup_compact = true;
  config.cleanup_delete = false;
  config.segment_bytes = 1 << 20;
  if (made.cluster->create_topic("t", 1, config) != protocol::ErrorCode::kNone) std::abort();
  broker::StoredTopic& topic = *made.cluster->find_topic("t");
  std::string value(100, 'v');
  std::int64_t record = 0;
  while (topic.partitions[0].size_bytes() < kLogBytes) {
    protocol::RecordBatchBuilder builder;
    for (int i = 0; i < kRecordsPerBatch; ++i, ++record) {
      char key[32];  // "key-" and 12 digits: 16 bytes
      std::snprintf(key, sizeof key, "key-%012lld", static_cast<long long>(record % keys));
      value[0] = static_cast<char>('a' + record % 26);
      builder.add(ByteView::of(key), ByteView::of(value), 1700000000000 + record);
    }
    const std::vector<std::uint8_t> batch = codec == protocol::Compression::kNone
                                                ? builder.build()
                                                : protocol::build_compressed_batch(builder, codec);
    if (!made.cluster->append(topic, 0, batch, kRecordsPerBatch - 1, 1700000000000 + record)) {
      std::abort();
    }
  }
  for (const broker::SegmentView& segment : topic.partitions[0].closed_segments()) {
    made.closed_bytes += segment.used_bytes;
  }
  return made;
}

std::int64_t records_in_log(std::int64_t keys_arg) {
  // As many keys as records: every key once (nothing to remove).
  return keys_arg == 0 ? std::int64_t{1} << 40 : keys_arg;
}

void BM_LogCleaner_Clean(benchmark::State& state) {
  const std::int64_t keys = records_in_log(state.range(0));
  const auto codec = static_cast<protocol::Compression>(state.range(1));
  std::size_t bytes = 0;
  std::size_t kept = 0;
  for (auto _ : state) {
    state.PauseTiming();
    CompactedLog log = make_log(keys, codec);
    broker::LogCleaner cleaner{broker::LogCleanerOptions{.max_map_bytes = std::size_t{1} << 30}};
    state.ResumeTiming();
    broker::CleanerPass pass;
    do {
      pass = cleaner.run_pass(*log.cluster, 1800000000000);
    } while (pass.more_work);
    state.PauseTiming();
    bytes += log.closed_bytes;
    kept = log.cluster->find_partition("t", 0)->size_bytes();
    log.cluster.reset();
    state.ResumeTiming();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
  state.counters["log_bytes_after"] = static_cast<double>(kept);
}

// The baseline: copying the same closed segments' bytes into fresh memory.
void BM_PlainCopy(benchmark::State& state) {
  const std::int64_t keys = records_in_log(state.range(0));
  const auto codec = static_cast<protocol::Compression>(state.range(1));
  CompactedLog log = make_log(keys, codec);
  const broker::BatchLog& partition = *log.cluster->find_partition("t", 0);
  std::size_t bytes = 0;
  for (auto _ : state) {
    for (const broker::SegmentView& segment : partition.closed_segments()) {
      auto copy = std::make_unique_for_overwrite<std::uint8_t[]>(segment.used_bytes);
      std::memcpy(copy.get(), segment.batches.front().data, segment.used_bytes);
      benchmark::DoNotOptimize(copy.get());
      bytes += segment.used_bytes;
    }
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
}

void shapes(benchmark::internal::Benchmark* bench) {
  // 16 MiB of 10-record batches of ~130-byte records hold about 130,000 records.
  for (const std::int64_t codec : {0, 3, 4}) {
    bench->Args({13000, codec});  // 90% superseded
    bench->Args({0, codec});      // unique keys: nothing removed
  }
  bench->Unit(benchmark::kMillisecond);
}

BENCHMARK(BM_LogCleaner_Clean)->Apply(shapes)->Iterations(5);
BENCHMARK(BM_PlainCopy)->Apply(shapes);

}  // namespace
}  // namespace kgroups::bench
