// SPDX-License-Identifier: Apache-2.0
//
// The consumer-group (KIP-848) coordinator's cost per ConsumerGroupHeartbeat in a large
// group (issue 27: a heartbeat should cost in proportion to what changed, not to the
// topic's partition count). Arguments: members, partitions of the one topic they all
// subscribe to. Each group is joined and heartbeated until every member is reconciled at
// the target epoch (Stable) before measuring; the clock never moves, so nothing expires.
// - BM_SteadyHeartbeat: a Stable member heartbeats, members in turn; arg 2 says whether it
//   reports its owned partitions (1, as the test harness does) or not (0: Kafka's Java
//   consumer sends them only when they changed).
// - BM_JoinLeaveRebalance: one more member joins and every member heartbeats until the
//   group is Stable again, then it leaves and the group settles once more; the counter
//   `per_heartbeat` is the time per heartbeat of that whole exchange.
// - BM_JoinHeartbeat: the joining member's heartbeat alone, which bumps the group epoch and
//   computes the group's target assignment.
// The small cases (1 member of 1 partition; 500 members of 500 partitions) are the
// baselines the large one is compared with in the same run (docs/PERFORMANCE.md).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "broker/coordinator/clock.h"
#include "broker/coordinator/consumer_group_coordinator.h"
#include "broker/coordinator/in_memory_topic_catalog.h"

namespace kgroups::broker {
namespace {

constexpr const char* kGroup = "bench-group";
constexpr const char* kTopic = "events";

// A client's side of the protocol: its id, epoch and what it owns.
struct BenchConsumer {
  std::string member_id;
  std::int32_t member_epoch = 0;
  std::vector<TopicPartitions> owned;
};

// A coordinator holding one Stable group of `members` members subscribed to one topic of
// `partitions` partitions.
class Fixture {
 public:
  Fixture(int members, int partitions)
      : coordinator_(config(members), clock_, catalog_), consumers_(members) {
    catalog_.create_topic(kTopic, partitions);
    for (BenchConsumer& consumer : consumers_) join(consumer);
    settle();
  }

  // Heartbeats every member, round after round, until a round changes nothing; returns
  // the heartbeats sent.
  std::int64_t settle() {
    std::int64_t heartbeats = 0;
    for (bool changed = true; changed;) {
      changed = false;
      for (BenchConsumer& consumer : consumers_) {
        const std::int32_t epoch = consumer.member_epoch;
        const bool assigned = apply(consumer, coordinator_.heartbeat(heartbeat_params(consumer)));
        ++heartbeats;
        changed = changed || assigned || epoch != consumer.member_epoch;
      }
    }
    return heartbeats;
  }

  // The consumer joins (epoch 0) and gets its member id.
  void join(BenchConsumer& consumer) {
    ConsumerGroupHeartbeatParams params = base_params(consumer);
    params.member_epoch = kJoinMemberEpoch;
    params.rebalance_timeout_ms = 30000;
    params.subscribed_topic_names = std::vector<std::string>{kTopic};
    params.owned_topic_partitions = std::vector<TopicPartitions>{};
    apply(consumer, coordinator_.heartbeat(params));
  }

  void leave(BenchConsumer& consumer) {
    ConsumerGroupHeartbeatParams params = base_params(consumer);
    params.member_epoch = kLeaveMemberEpoch;
    coordinator_.heartbeat(params);
    consumer = BenchConsumer{};
  }

  static ConsumerGroupHeartbeatParams heartbeat_params(const BenchConsumer& consumer,
                                                       bool report_owned = true) {
    ConsumerGroupHeartbeatParams params = base_params(consumer);
    params.member_epoch = consumer.member_epoch;
    if (report_owned) params.owned_topic_partitions = consumer.owned;
    return params;
  }

  ConsumerGroupCoordinator& coordinator() { return coordinator_; }
  std::vector<BenchConsumer>& consumers() { return consumers_; }

  // Returns the shared fixture for the shape, building it on first use.
  static Fixture& of(int members, int partitions) {
    static std::map<std::pair<int, int>, std::unique_ptr<Fixture>> fixtures;
    std::unique_ptr<Fixture>& fixture = fixtures[{members, partitions}];
    if (!fixture) fixture = std::make_unique<Fixture>(members, partitions);
    return *fixture;
  }

 private:
  static ConsumerGroupConfig config(int members) {
    ConsumerGroupConfig config;
    config.max_group_size = static_cast<std::size_t>(members) + 1;
    return config;
  }

  static ConsumerGroupHeartbeatParams base_params(const BenchConsumer& consumer) {
    ConsumerGroupHeartbeatParams params;
    params.group_id = kGroup;
    params.member_id = consumer.member_id;
    params.client_id = "bench-client";
    params.client_host = "/127.0.0.1";
    return params;
  }

  // Applies the answer as a client does; returns whether it carried an assignment that
  // differs from what the consumer owned.
  static bool apply(BenchConsumer& consumer, ConsumerGroupHeartbeatResult result) {
    if (result.error != GroupError::kNone) return false;
    consumer.member_id = std::move(result.member_id);
    consumer.member_epoch = result.member_epoch;
    if (!result.assignment || *result.assignment == consumer.owned) return false;
    consumer.owned = std::move(*result.assignment);
    return true;
  }

  ManualClock clock_;  // never advanced: no session or rebalance timeout fires
  InMemoryTopicCatalog catalog_;
  ConsumerGroupCoordinator coordinator_;
  std::vector<BenchConsumer> consumers_;
};

void BM_SteadyHeartbeat(benchmark::State& state) {
  Fixture& fixture =
      Fixture::of(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  const bool report_owned = state.range(2) != 0;
  // The requests are built up front: the figure is the coordinator's, not the client's.
  std::vector<ConsumerGroupHeartbeatParams> requests;
  for (const BenchConsumer& consumer : fixture.consumers()) {
    requests.push_back(Fixture::heartbeat_params(consumer, report_owned));
  }
  std::size_t next = 0;
  for (auto _ : state) {
    ConsumerGroupHeartbeatResult result = fixture.coordinator().heartbeat(requests[next]);
    benchmark::DoNotOptimize(result);
    if (++next == requests.size()) next = 0;
  }
  const ConsumerGroupDescription description = fixture.coordinator().describe_group(kGroup);
  if (description.group_state != "Stable") state.SkipWithError("the group is not Stable");
}

void BM_JoinLeaveRebalance(benchmark::State& state) {
  Fixture& fixture =
      Fixture::of(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  std::int64_t heartbeats = 0;
  for (auto _ : state) {
    BenchConsumer newcomer;
    fixture.join(newcomer);
    fixture.consumers().push_back(std::move(newcomer));
    heartbeats += 1 + fixture.settle();
    fixture.leave(fixture.consumers().back());
    fixture.consumers().pop_back();
    heartbeats += 1 + fixture.settle();
  }
  state.counters["heartbeats"] =
      benchmark::Counter(static_cast<double>(heartbeats), benchmark::Counter::kAvgIterations);
  state.counters["per_heartbeat"] = benchmark::Counter(
      static_cast<double>(heartbeats), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// The heartbeat of a member joining a Stable group alone: it bumps the group epoch and
// computes the target assignment of every member. Untimed: it leaves and the group settles.
void BM_JoinHeartbeat(benchmark::State& state) {
  Fixture& fixture =
      Fixture::of(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  for (auto _ : state) {
    BenchConsumer newcomer;
    fixture.join(newcomer);
    state.PauseTiming();
    fixture.consumers().push_back(std::move(newcomer));
    fixture.settle();
    fixture.leave(fixture.consumers().back());
    fixture.consumers().pop_back();
    fixture.settle();
    state.ResumeTiming();
  }
}

BENCHMARK(BM_SteadyHeartbeat)
    ->ArgNames({"members", "partitions", "owned"})
    ->Args({1, 1, 1})
    ->Args({500, 500, 1})
    ->Args({500, 10000, 1})
    ->Args({1, 1, 0})
    ->Args({500, 500, 0})
    ->Args({500, 10000, 0})
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_JoinLeaveRebalance)
    ->ArgNames({"members", "partitions"})
    ->Args({1, 1})
    ->Args({500, 500})
    ->Args({500, 10000})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_JoinHeartbeat)
    ->ArgNames({"members", "partitions"})
    ->Args({1, 1})
    ->Args({500, 500})
    ->Args({500, 10000})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace kgroups::broker
