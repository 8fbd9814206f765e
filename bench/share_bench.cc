// SPDX-License-Identifier: Apache-2.0
//
// Share groups, cold: each batch is a fresh Topic of 16 partitions holding
// 200,000 small records (32-byte values, filled untimed); one member reads it
// all with share_poll(500) and then accepts what it holds (acknowledge with
// kAccept), until the topic is drained. Reported as records per second, beside
// the baseline measured the same way in the same run: a consumer group's
// poll(500) and commit over an identical fresh topic. The difference is what
// acquisition locks and per-record acknowledgement cost over a position and
// one committed offset per partition.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bench_keys.h"
#include "kgroups/topic.h"

namespace kgroups::bench {
namespace {

constexpr int kPartitions = 16;
constexpr int kRecords = 200'000;
constexpr int kMaxRecords = 500;

std::unique_ptr<Topic> filled_topic() {
  TopicOptions options;
  options.share_auto_offset_reset = "earliest";
  options.partition_max_record_locks = 10'000;
  auto topic = std::make_unique<Topic>(kPartitions, options);
  const std::vector<std::string> keys = make_keys();
  const std::string value(32, 'v');
  for (int i = 0; i < kRecords; ++i) (void)topic->append(keys[i & (kKeyCount - 1)], value);
  return topic;
}

// Per batch: a fresh filled topic, join(topic) untimed, then timed: poll(topic) and
// settle(topic) in turns until a poll returns nothing.
template <typename Join, typename Poll, typename Settle>
void cold_batches(benchmark::State& state, Join join, Poll poll, Settle settle) {
  std::unique_ptr<Topic> topic;
  std::int64_t delivered = 0;
  for (auto _ : state) {
    state.PauseTiming();
    topic.reset();
    topic = filled_topic();
    join(*topic);
    state.ResumeTiming();
    std::int64_t read = 0;
    for (;;) {
      const auto records = poll(*topic);
      if (records.empty()) break;
      benchmark::DoNotOptimize(records.data());
      settle(*topic);
      read += static_cast<std::int64_t>(records.size());
    }
    if (read != kRecords) state.SkipWithError("the batch did not read every record");
    delivered += read;
  }
  state.SetItemsProcessed(delivered);
}

void BM_ColdShareAcquireAccept(benchmark::State& state) {
  cold_batches(
      state, [](Topic& topic) { topic.share_join("g", "member-0"); },
      [](Topic& topic) { return topic.share_poll("g", "member-0", kMaxRecords); },
      [](Topic& topic) { topic.acknowledge("g", "member-0", AcknowledgeType::kAccept); });
}

void BM_ColdPollCommit(benchmark::State& state) {
  cold_batches(
      state, [](Topic& topic) { topic.join("g", "member-0"); },
      [](Topic& topic) { return topic.poll("g", "member-0", kMaxRecords); },
      [](Topic& topic) { topic.commit("g", "member-0"); });
}

BENCHMARK(BM_ColdShareAcquireAccept)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ColdPollCommit)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace kgroups::bench
