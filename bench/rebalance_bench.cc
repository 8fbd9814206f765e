// SPDX-License-Identifier: Apache-2.0
//
// Rebalance cost: a group of 100 consumers over 1,000 partitions; each
// iteration is one leave and one join of a member, i.e. two full rebalances
// (range assignment plus every member's positions reset from committed offsets).
// The reported time is per rebalance. Baseline: the naive implementation.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "kgroups/topic.h"
#include "naive_baseline.h"

namespace kgroups::bench {
namespace {

constexpr int kPartitions = 1000;
constexpr int kConsumers = 100;

std::vector<std::string> consumer_ids() {
  std::vector<std::string> ids;
  ids.reserve(kConsumers);
  for (int i = 0; i < kConsumers; ++i) ids.push_back("consumer-" + std::to_string(100 + i));
  return ids;
}

template <class TopicType>
void rebalance(benchmark::State& state) {
  TopicType topic(kPartitions);
  const std::vector<std::string> ids = consumer_ids();
  for (const auto& id : ids) topic.join("g", id);
  const std::string& moving = ids[kConsumers / 2];
  for (auto _ : state) {
    topic.leave("g", moving);
    topic.join("g", moving);
  }
  state.SetItemsProcessed(state.iterations() * 2);
  // Seconds per rebalance, printed with an SI prefix (u = microseconds).
  state.counters["seconds_per_rebalance"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * 2,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_Rebalance1000Partitions100Consumers_Kgroups(benchmark::State& state) {
  rebalance<Topic>(state);
}
void BM_Rebalance1000Partitions100Consumers_Naive(benchmark::State& state) {
  rebalance<NaiveTopic>(state);
}

BENCHMARK(BM_Rebalance1000Partitions100Consumers_Kgroups)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Rebalance1000Partitions100Consumers_Naive)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace kgroups::bench
