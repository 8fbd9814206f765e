// SPDX-License-Identifier: Apache-2.0
//
// Memory overhead per record: every heap allocation of this program is counted
// (global operator new/delete are replaced), and so are the chunks the topic's
// arenas hold from the chunk supply (mapped memory, not heap), a topic is filled with 1,000,000
// records of 16-byte keys and 32-byte values, and the bytes still allocated
// beyond the keys' and values' own bytes are divided by the record count.
// Reported for kgroups and the naive baseline. A separate program, so that the
// counting does not slow the throughput benchmarks.
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "bench_keys.h"
#include "kgroups/topic.h"
#include "memory/chunk_supply.h"
#include "naive_baseline.h"

namespace {

std::atomic<std::int64_t> live_bytes{0};

// Each block carries its size in a 16-byte header so delete can subtract it.
constexpr std::size_t kHeader = 16;

void* counted_allocate(std::size_t size) {
  void* block = std::malloc(size + kHeader);
  if (block == nullptr) throw std::bad_alloc();
  *static_cast<std::size_t*>(block) = size;
  live_bytes.fetch_add(static_cast<std::int64_t>(size), std::memory_order_relaxed);
  return static_cast<char*>(block) + kHeader;
}

void counted_free(void* pointer) noexcept {
  if (pointer == nullptr) return;
  void* block = static_cast<char*>(pointer) - kHeader;
  live_bytes.fetch_sub(static_cast<std::int64_t>(*static_cast<std::size_t*>(block)),
                       std::memory_order_relaxed);
  std::free(block);
}

}  // namespace

void* operator new(std::size_t size) { return counted_allocate(size); }
void* operator new[](std::size_t size) { return counted_allocate(size); }
void operator delete(void* pointer) noexcept { counted_free(pointer); }
void operator delete[](void* pointer) noexcept { counted_free(pointer); }
void operator delete(void* pointer, std::size_t) noexcept { counted_free(pointer); }
void operator delete[](void* pointer, std::size_t) noexcept { counted_free(pointer); }

namespace kgroups::bench {
namespace {

constexpr int kRecords = 1'000'000;

template <class TopicType>
void overhead(benchmark::State& state) {
  const std::vector<std::string> keys = make_keys();
  const std::string value(32, 'v');
  double per_record = 0;
  for (auto _ : state) {
    const auto& supply = kgroups::memory::ChunkSupply::shared();
    const auto held = [&supply] { return static_cast<std::int64_t>(supply.held_mapped_bytes()); };
    const std::int64_t before = live_bytes.load() + held();
    auto topic = std::make_unique<TopicType>(16);
    for (int i = 0; i < kRecords; ++i) (void)topic->append(keys[i & (kKeyCount - 1)], value);
    const std::int64_t used = live_bytes.load() + held() - before;
    per_record = static_cast<double>(used - std::int64_t{kRecords} * (16 + 32)) / kRecords;
  }
  state.counters["overhead_bytes_per_record"] = per_record;
}

void BM_MemoryOverhead_Kgroups(benchmark::State& state) { overhead<Topic>(state); }
void BM_MemoryOverhead_Naive(benchmark::State& state) { overhead<NaiveTopic>(state); }

BENCHMARK(BM_MemoryOverhead_Kgroups)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MemoryOverhead_Naive)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace kgroups::bench
