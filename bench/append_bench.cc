// SPDX-License-Identifier: Apache-2.0
//
// Append throughput: kgroups::Topic vs the naive baseline, for 16-byte keys with
// 32-byte and 1 KiB values, single-threaded and from two threads; plus memcpy of
// the same bytes into a warm buffer as the bandwidth ceiling. Each timed batch
// fills a fresh topic with kBatch records so memory stays bounded.
//
// Warm (BM_Append*): freed memory stays mapped between batches, as in a
// long-running process. Cold (BM_ColdAppend*): before each batch the chunk
// supply and glibc give every free page back to the kernel, so each batch
// starts like a new program's first topic and pays for its memory (page faults
// or pre-faulting); those report process CPU time and the page faults per batch.
#include <benchmark/benchmark.h>

#include <malloc.h>
#include <sys/resource.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "bench_fault_in.h"
#include "bench_keys.h"
#include "kgroups/topic.h"
#include "memory/chunk_supply.h"
#include "naive_baseline.h"

namespace kgroups::bench {
namespace {

constexpr int kPartitions = 16;
constexpr int kBatch = 200000;

// Freed memory stays mapped in this process, for both implementations, as in
// a long-running process: each batch then writes into warm memory, like the
// memcpy baseline. (Without this, glibc returns the previous topic's chunks to
// the kernel and every batch pays a page fault per 4 KiB; see PERFORMANCE.md.)
// The same holds for kgroups' chunk supply, whose cache is raised from 64 MiB
// to hold a whole batch of 1 KiB records.
void keep_freed_memory() {
  mallopt(M_MMAP_THRESHOLD, 512 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  memory::ChunkSupply::shared().set_max_cached_bytes(std::size_t{1} << 30);
}

// glibc's default thresholds (128 KiB) and the supply's default cache, undoing
// keep_freed_memory() when a cold benchmark runs after a warm one.
void return_freed_memory() {
  mallopt(M_MMAP_THRESHOLD, 128 << 10);
  mallopt(M_TRIM_THRESHOLD, 128 << 10);
  memory::ChunkSupply::shared().set_max_cached_bytes(memory::ChunkSupplyOptions{}.max_cached_bytes);
}

long minor_page_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

template <class TopicType>
void append_batches(benchmark::State& state, std::size_t value_size) {
  keep_freed_memory();
  const std::vector<std::string> keys = make_keys();
  const std::string value(value_size, 'v');
  std::unique_ptr<TopicType> topic;
  for (auto _ : state) {
    state.PauseTiming();
    topic.reset();
    topic = std::make_unique<TopicType>(kPartitions);
    state.ResumeTiming();
    for (int i = 0; i < kBatch; ++i) {
      benchmark::DoNotOptimize(topic->append(keys[i & (kKeyCount - 1)], value));
    }
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
  state.SetBytesProcessed(state.iterations() * kBatch * static_cast<std::int64_t>(16 + value_size));
}

void BM_AppendSmall_Kgroups(benchmark::State& state) { append_batches<Topic>(state, 32); }
void BM_AppendSmall_Naive(benchmark::State& state) { append_batches<NaiveTopic>(state, 32); }
void BM_Append1KiB_Kgroups(benchmark::State& state) { append_batches<Topic>(state, 1024); }
void BM_Append1KiB_Naive(benchmark::State& state) { append_batches<NaiveTopic>(state, 1024); }

// Each batch fills a fresh topic after every free page went back to the kernel:
// the chunk supply's cache, its current region, and glibc's free memory.
template <class TopicType>
void append_batches_cold(benchmark::State& state, std::size_t value_size) {
  return_freed_memory();
  use_fault_in_from_environment();
  const std::vector<std::string> keys = make_keys();
  const std::string value(value_size, 'v');
  std::unique_ptr<TopicType> topic;
  long page_faults = 0;
  for (auto _ : state) {
    state.PauseTiming();
    topic.reset();
    memory::ChunkSupply::shared().trim();
    malloc_trim(0);
    topic = std::make_unique<TopicType>(kPartitions);
    const long faults_before = minor_page_faults();
    state.ResumeTiming();
    for (int i = 0; i < kBatch; ++i) {
      benchmark::DoNotOptimize(topic->append(keys[i & (kKeyCount - 1)], value));
    }
    state.PauseTiming();
    page_faults += minor_page_faults() - faults_before;
    state.ResumeTiming();
  }
  topic.reset();
  memory::ChunkSupply::shared().trim();
  malloc_trim(0);
  const auto records = static_cast<double>(state.iterations()) * kBatch;
  state.counters["faults_per_batch"] =
      benchmark::Counter(static_cast<double>(page_faults), benchmark::Counter::kAvgIterations);
  state.counters["faults_per_record"] = static_cast<double>(page_faults) / records;
  state.SetItemsProcessed(state.iterations() * kBatch);
  state.SetBytesProcessed(state.iterations() * kBatch * static_cast<std::int64_t>(16 + value_size));
}

void BM_ColdAppendSmall_Kgroups(benchmark::State& state) { append_batches_cold<Topic>(state, 32); }
void BM_ColdAppendSmall_Naive(benchmark::State& state) {
  append_batches_cold<NaiveTopic>(state, 32);
}
void BM_ColdAppend1KiB_Kgroups(benchmark::State& state) { append_batches_cold<Topic>(state, 1024); }
void BM_ColdAppend1KiB_Naive(benchmark::State& state) {
  append_batches_cold<NaiveTopic>(state, 1024);
}

// The ceiling for 1 KiB appends: copying the same key and value bytes, one
// record after the other, into a buffer that is already mapped and warm.
void BM_Memcpy1KiB(benchmark::State& state) {
  keep_freed_memory();
  const std::vector<std::string> keys = make_keys();
  const std::string value(1024, 'v');
  const std::size_t record_size = 16 + value.size();
  std::vector<char> buffer(static_cast<std::size_t>(kBatch) * record_size, 1);
  for (auto _ : state) {
    char* out = buffer.data();
    for (int i = 0; i < kBatch; ++i) {
      keys[i & (kKeyCount - 1)].copy(out, 16);
      value.copy(out + 16, value.size());
      out += record_size;
    }
    benchmark::DoNotOptimize(buffer.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
  state.SetBytesProcessed(state.iterations() * kBatch * static_cast<std::int64_t>(record_size));
}

// Two threads appending small records to one shared topic: per-partition locks
// against the baseline's single mutex.
template <class TopicType>
void append_shared(benchmark::State& state) {
  static std::unique_ptr<TopicType> topic;
  static const std::vector<std::string> kKeys = make_keys();
  const std::string value(32, 'v');
  if (state.thread_index() == 0) topic = std::make_unique<TopicType>(kPartitions);
  int i = state.thread_index() * 1237;
  for (auto _ : state) {
    for (int n = 0; n < 1000; ++n) {
      benchmark::DoNotOptimize(topic->append(kKeys[i++ & (kKeyCount - 1)], value));
    }
  }
  state.SetItemsProcessed(state.iterations() * 1000);
  if (state.thread_index() == 0) topic.reset();
}

void BM_AppendSmallTwoThreads_Kgroups(benchmark::State& state) { append_shared<Topic>(state); }
void BM_AppendSmallTwoThreads_Naive(benchmark::State& state) { append_shared<NaiveTopic>(state); }

BENCHMARK(BM_AppendSmall_Kgroups)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_AppendSmall_Naive)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Append1KiB_Kgroups)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Append1KiB_Naive)->Unit(benchmark::kMillisecond)->UseRealTime();
// Cold batches report real time and the whole process's CPU time (page faults included).
void cold_timing(benchmark::internal::Benchmark* bench) {
  bench->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();
}
BENCHMARK(BM_ColdAppendSmall_Kgroups)->Apply(cold_timing);
BENCHMARK(BM_ColdAppendSmall_Naive)->Apply(cold_timing);
BENCHMARK(BM_ColdAppend1KiB_Kgroups)->Apply(cold_timing);
BENCHMARK(BM_ColdAppend1KiB_Naive)->Apply(cold_timing);
BENCHMARK(BM_Memcpy1KiB)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_AppendSmallTwoThreads_Kgroups)->Threads(2)->UseRealTime()->Iterations(2000);
BENCHMARK(BM_AppendSmallTwoThreads_Naive)->Threads(2)->UseRealTime()->Iterations(2000);

}  // namespace
}  // namespace kgroups::bench
