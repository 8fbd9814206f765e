// SPDX-License-Identifier: Apache-2.0
//
// Rebalance cost: a group of 100 consumers over 1,000 partitions; each
// iteration is one leave and one join of a member, i.e. two full rebalances
// (assignment plus the members' positions reset or kept, and the history
// entry). The reported time is per rebalance. Baselines, in the same run: the
// naive implementation, and the lab's Topic(n) (range) against which each
// assignor of TopicOptions is measured (SPEC.md, "Options").
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "kgroups/topic.h"
#include "kgroups/topic_options.h"
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
void rebalance(benchmark::State& state, TopicType& topic) {
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

void rebalance_with_assignor(benchmark::State& state, const char* assignor) {
  TopicOptions options;
  options.assignor = assignor;
  Topic topic(kPartitions, options);
  rebalance(state, topic);
}

void BM_Rebalance1000Partitions100Consumers_Kgroups(benchmark::State& state) {
  Topic topic(kPartitions);
  rebalance(state, topic);
}
void BM_Rebalance1000Partitions100Consumers_Naive(benchmark::State& state) {
  NaiveTopic topic(kPartitions);
  rebalance(state, topic);
}
void BM_Rebalance1000Partitions100Consumers_Range(benchmark::State& state) {
  rebalance_with_assignor(state, "range");
}
void BM_Rebalance1000Partitions100Consumers_RoundRobin(benchmark::State& state) {
  rebalance_with_assignor(state, "roundrobin");
}
void BM_Rebalance1000Partitions100Consumers_Sticky(benchmark::State& state) {
  rebalance_with_assignor(state, "sticky");
}
void BM_Rebalance1000Partitions100Consumers_CooperativeSticky(benchmark::State& state) {
  rebalance_with_assignor(state, "cooperative-sticky");
}

BENCHMARK(BM_Rebalance1000Partitions100Consumers_Kgroups)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Rebalance1000Partitions100Consumers_Naive)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Rebalance1000Partitions100Consumers_Range)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Rebalance1000Partitions100Consumers_RoundRobin)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Rebalance1000Partitions100Consumers_Sticky)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Rebalance1000Partitions100Consumers_CooperativeSticky)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace kgroups::bench
