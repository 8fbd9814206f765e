// SPDX-License-Identifier: Apache-2.0
//
// The group coordinator's cost per call while other groups are present: OffsetCommit,
// Heartbeat, a one-member group's rebalance (its leader rejoins, then syncs), and a
// new group's whole life (join, sync, leave). The argument is the number of other
// groups, each Stable with one member whose session deadline is pending (the clock
// never moves, so nothing expires): the figures should not grow with it.
// The coordinator with its other groups is built once per count and shared by the
// benchmarks, which leave the target group as they found it.
#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "broker/coordinator/clock.h"
#include "broker/coordinator/group_coordinator.h"

namespace kgroups::broker {
namespace {

constexpr std::int32_t kSessionTimeoutMs = 10000;

JoinGroupParams join_params(std::string group_id, std::string member_id = "") {
  JoinGroupParams params;
  params.group_id = std::move(group_id);
  params.member_id = std::move(member_id);
  params.client_id = "bench-client";
  params.client_host = "/127.0.0.1";
  params.session_timeout_ms = kSessionTimeoutMs;
  params.rebalance_timeout_ms = kSessionTimeoutMs;
  params.protocol_type = "consumer";
  params.protocols = {GroupProtocol{"range", std::vector<std::uint8_t>(24, 1)}};
  return params;
}

// One member joins `group_id` (or `member_id` rejoins it) and syncs as the leader;
// returns the member id and the generation.
std::pair<std::string, std::int32_t> join_and_sync(GroupCoordinator& coordinator,
                                                   const std::string& group_id,
                                                   std::string member_id = "") {
  JoinGroupResult joined;
  coordinator.join_group(join_params(group_id, std::move(member_id)),
                         [&joined](JoinGroupResult result) { joined = std::move(result); });
  SyncGroupParams sync;
  sync.group_id = group_id;
  sync.generation_id = joined.generation_id;
  sync.member_id = joined.member_id;
  sync.assignments = {MemberAssignment{joined.member_id, std::vector<std::uint8_t>(32, 2)}};
  coordinator.sync_group(std::move(sync), [](const SyncGroupResult&) {});
  return {joined.member_id, joined.generation_id};
}

// A coordinator holding `other_groups` Stable one-member groups plus the target group.
class Fixture {
 public:
  explicit Fixture(int other_groups) : coordinator_(config(other_groups), clock_) {
    for (int i = 0; i < other_groups; ++i)
      join_and_sync(coordinator_, "other-" + std::to_string(i));
    std::tie(member_id_, generation_id_) = join_and_sync(coordinator_, kTarget);
  }

  GroupCoordinator& coordinator() { return coordinator_; }
  [[nodiscard]] const std::string& member_id() const { return member_id_; }
  std::int32_t& generation_id() { return generation_id_; }

  // Returns the shared fixture for this many other groups, building it on first use.
  static Fixture& with_other_groups(int other_groups) {
    static std::map<int, std::unique_ptr<Fixture>> fixtures;
    std::unique_ptr<Fixture>& fixture = fixtures[other_groups];
    if (!fixture) fixture = std::make_unique<Fixture>(other_groups);
    return *fixture;
  }

  static constexpr const char* kTarget = "target";

 private:
  static CoordinatorConfig config(int other_groups) {
    CoordinatorConfig config;
    config.max_groups = static_cast<std::size_t>(other_groups) + 2;
    return config;
  }

  ManualClock clock_;  // never advanced: every session deadline stays pending
  GroupCoordinator coordinator_;
  std::string member_id_;
  std::int32_t generation_id_ = -1;
};

void BM_CommitOffsets(benchmark::State& state) {
  Fixture& fixture = Fixture::with_other_groups(static_cast<int>(state.range(0)));
  OffsetCommitParams params{Fixture::kTarget,
                            fixture.generation_id(),
                            fixture.member_id(),
                            {PartitionOffset{{"orders", 0}, {0, ""}}},
                            std::nullopt};
  for (auto _ : state) {
    ++params.offsets[0].committed.offset;
    auto result = fixture.coordinator().commit_offsets(params);
    benchmark::DoNotOptimize(result);
  }
}

void BM_Heartbeat(benchmark::State& state) {
  Fixture& fixture = Fixture::with_other_groups(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    GroupError error = fixture.coordinator().heartbeat(Fixture::kTarget, fixture.generation_id(),
                                                       fixture.member_id(), std::nullopt);
    benchmark::DoNotOptimize(error);
  }
}

// The target group's only member (its leader) rejoins, which starts and completes a
// rebalance at once, then syncs: Stable again, one generation later.
void BM_RejoinAndSync(benchmark::State& state) {
  Fixture& fixture = Fixture::with_other_groups(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    fixture.generation_id() =
        join_and_sync(fixture.coordinator(), Fixture::kTarget, fixture.member_id()).second;
  }
}

// A group is created by its first member's join, becomes Stable by its sync, and is
// dropped when that member leaves.
void BM_NewGroupJoinSyncLeave(benchmark::State& state) {
  Fixture& fixture = Fixture::with_other_groups(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    std::string member_id = join_and_sync(fixture.coordinator(), "short-lived").first;
    LeaveGroupResult left =
        fixture.coordinator().leave_group("short-lived", {{member_id, std::nullopt}});
    benchmark::DoNotOptimize(left);
  }
}

BENCHMARK(BM_CommitOffsets)->Arg(1)->Arg(1000)->Arg(80000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Heartbeat)->Arg(1)->Arg(1000)->Arg(80000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RejoinAndSync)->Arg(1)->Arg(1000)->Arg(80000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_NewGroupJoinSyncLeave)->Arg(1)->Arg(1000)->Arg(80000)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace kgroups::broker
