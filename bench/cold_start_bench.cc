// SPDX-License-Identifier: Apache-2.0
//
// One process's appends from its start (issue 32): a plain program, not a Google
// Benchmark, because the first batch of a fresh process happens once per process
// and a benchmark library would time it among many. bench/cold_start_bench.py runs
// it in new processes and turns its lines into ratios.
//
//   kgroups_cold_start_bench kgroups|naive VALUE_BYTES BATCHES [warm]
//
// Appends BATCHES batches of 200,000 records (16-byte keys, VALUE_BYTES-byte
// values, 16 partitions), each into a new topic, and prints one line per batch:
//   batch=N wall_ms=W cpu_ms=C faults=F
// Batch 1 runs on memory the process never touched. Before each later batch the
// previous topic is destroyed and, unless `warm`, every free page goes back to the
// kernel (the chunk supply's cache, glibc's free memory), so each batch is as cold
// as a new topic in a long-running process can be. After the batches a kgroups run
// prints how its chunk supply faulted in its regions:
//   regions small=S huge=H dear_huge=D
// KGROUPS_BENCH_FAULT_IN picks a fixed way of faulting regions in (bench_fault_in.h).
#include <malloc.h>
#include <sys/resource.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bench_fault_in.h"
#include "bench_keys.h"
#include "kgroups/topic.h"
#include "memory/chunk_supply.h"
#include "naive_baseline.h"

namespace {

using kgroups::bench::kKeyCount;

constexpr int kPartitions = 16;
constexpr int kBatch = 200000;

double process_cpu_ms() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

long minor_page_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

struct Options {
  bool kgroups = true;
  std::size_t value_bytes = 32;
  int batches = 1;
  bool warm = false;
};

bool parse_count(std::string_view text, int& out) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  return error == std::errc{} && end == text.data() + text.size() && out > 0;
}

bool parse(int argc, char** argv, Options& options) {
  if (argc < 4 || argc > 5) return false;
  const std::string_view impl = argv[1];
  if (impl != "kgroups" && impl != "naive") return false;
  options.kgroups = impl == "kgroups";
  int value_bytes = 0;
  if (!parse_count(argv[2], value_bytes) || !parse_count(argv[3], options.batches)) return false;
  options.value_bytes = static_cast<std::size_t>(value_bytes);
  if (argc == 5) {
    if (std::string_view(argv[4]) != "warm") return false;
    options.warm = true;
  }
  return true;
}

template <class TopicType>
void run(const Options& options) {
  const std::vector<std::string> keys = kgroups::bench::make_keys();
  const std::string value(options.value_bytes, 'v');
  std::unique_ptr<TopicType> topic;
  for (int batch = 1; batch <= options.batches; ++batch) {
    topic.reset();
    if (batch > 1 && !options.warm) {
      kgroups::memory::ChunkSupply::shared().trim();
      malloc_trim(0);
    }
    const long faults_before = minor_page_faults();
    const double cpu_before = process_cpu_ms();
    const auto wall_before = std::chrono::steady_clock::now();
    topic = std::make_unique<TopicType>(kPartitions);
    for (int i = 0; i < kBatch; ++i) {
      (void)topic->append(keys[static_cast<std::size_t>(i & (kKeyCount - 1))], value);
    }
    const std::chrono::duration<double, std::milli> wall =
        std::chrono::steady_clock::now() - wall_before;
    std::printf("batch=%d wall_ms=%.3f cpu_ms=%.3f faults=%ld\n", batch, wall.count(),
                process_cpu_ms() - cpu_before, minor_page_faults() - faults_before);
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!parse(argc, argv, options)) {
    std::fprintf(stderr,
                 "usage: kgroups_cold_start_bench kgroups|naive VALUE_BYTES BATCHES [warm]\n"
                 "  e.g. kgroups_cold_start_bench kgroups 1024 5\n");
    return 2;
  }
  if (options.warm) {
    // Freed memory stays in the process for both implementations (as in append_bench.cc).
    mallopt(M_MMAP_THRESHOLD, 512 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    kgroups::memory::ChunkSupply::shared().set_max_cached_bytes(std::size_t{1} << 30);
  }
  if (options.kgroups) {
    kgroups::bench::use_fault_in_from_environment();
    run<kgroups::Topic>(options);
    const auto counts = kgroups::memory::ChunkSupply::shared().region_counts();
    std::printf("regions small=%llu huge=%llu dear_huge=%llu\n",
                static_cast<unsigned long long>(counts.small_regions),
                static_cast<unsigned long long>(counts.huge_regions),
                static_cast<unsigned long long>(counts.dear_huge_regions));
  } else {
    run<kgroups::bench::NaiveTopic>(options);
  }
  return 0;
}
