// SPDX-License-Identifier: Apache-2.0
//
// Poll plus commit: 4 consumers of one group take turns, each polling up to 500
// records and committing after every poll, over a topic filled beforehand.
// Reported as records delivered per second, kgroups vs the naive baseline.
// When the topic is drained, the group rewinds (untimed) and reads it again.
#include <benchmark/benchmark.h>

#include <array>
#include <map>
#include <string>
#include <vector>

#include "bench_keys.h"
#include "kgroups/topic.h"
#include "naive_baseline.h"

namespace kgroups::bench {
namespace {

constexpr int kPartitions = 16;
constexpr int kRecords = 2'000'000;
constexpr int kMaxRecords = 500;
std::array<std::string, 4> consumer_ids() {
  return {"consumer-0", "consumer-1", "consumer-2", "consumer-3"};
}

template <class TopicType>
void fill(TopicType& topic) {
  const std::vector<std::string> keys = make_keys();
  const std::string value(32, 'v');
  for (int i = 0; i < kRecords; ++i) (void)topic.append(keys[i & (kKeyCount - 1)], value);
}

// Rewinds the group to offset 0: every member commits 0 on its partitions
// (kgroups) or the group is rebuilt (baseline), then a rebalance resets positions.
void rewind(Topic& topic, const std::array<std::string, 4>& consumers) {
  for (const auto& consumer : consumers) {
    std::map<int, std::int64_t> zeros;
    for (const int partition : topic.assignment("g", consumer)) zeros[partition] = 0;
    topic.commit("g", consumer, zeros);
  }
  topic.leave("g", consumers[0]);
  topic.join("g", consumers[0]);
}

void BM_PollCommit_Kgroups(benchmark::State& state) {
  const std::array<std::string, 4> consumers = consumer_ids();
  Topic topic(kPartitions);
  fill(topic);
  for (const auto& consumer : consumers) topic.join("g", consumer);
  std::size_t turn = 0;
  std::int64_t delivered = 0;
  int empty_turns = 0;
  for (auto _ : state) {
    const std::string& consumer = consumers[turn++ % consumers.size()];
    const std::vector<Record> records = topic.poll("g", consumer, kMaxRecords);
    topic.commit("g", consumer);
    delivered += static_cast<std::int64_t>(records.size());
    empty_turns = records.empty() ? empty_turns + 1 : 0;
    if (empty_turns == static_cast<int>(consumers.size())) {
      state.PauseTiming();
      rewind(topic, consumers);
      empty_turns = 0;
      state.ResumeTiming();
    }
  }
  state.SetItemsProcessed(delivered);
}

void BM_PollCommit_Naive(benchmark::State& state) {
  const std::array<std::string, 4> consumers = consumer_ids();
  auto topic = std::make_unique<NaiveTopic>(kPartitions);
  fill(*topic);
  for (const auto& consumer : consumers) topic->join("g", consumer);
  std::size_t turn = 0;
  std::int64_t delivered = 0;
  int empty_turns = 0;
  for (auto _ : state) {
    const std::string& consumer = consumers[turn++ % consumers.size()];
    const std::vector<NaiveRecord> records = topic->poll("g", consumer, kMaxRecords);
    topic->commit("g", consumer);
    delivered += static_cast<std::int64_t>(records.size());
    empty_turns = records.empty() ? empty_turns + 1 : 0;
    if (empty_turns == static_cast<int>(consumers.size())) {
      state.PauseTiming();
      topic = std::make_unique<NaiveTopic>(kPartitions);
      fill(*topic);
      for (const auto& member : consumers) topic->join("g", member);
      empty_turns = 0;
      state.ResumeTiming();
    }
  }
  state.SetItemsProcessed(delivered);
}

BENCHMARK(BM_PollCommit_Kgroups)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_PollCommit_Naive)->UseRealTime()->MinTime(1.0);

}  // namespace
}  // namespace kgroups::bench
