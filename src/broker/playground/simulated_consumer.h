// SPDX-License-Identifier: Apache-2.0
//
// SimulatedConsumer: one consumer the playground runs inside kgroupsd. It is a real member of
// a classic group: it joins, syncs, heartbeats, commits and leaves through the broker's own
// group coordinator (CoordinatorService), with protocol type "consumer" and the consumer
// protocol's subscription and assignment bytes, so inspection and events see it as a client.
// When the coordinator makes it the leader it assigns with the model's assignor
// (leader_assignment.h).
//
// Rebalances, as Kafka's consumer does them:
// - eager (range, roundrobin, sticky): on REBALANCE_IN_PROGRESS it commits its positions,
//   drops every partition and rejoins; each assigned partition resumes from the committed
//   offset (the log start when none).
// - cooperative (cooperative-sticky): it rejoins keeping its partitions (and consuming them);
//   afterwards it commits and revokes only the partitions that moved, keeps its positions on
//   the others, and rejoins at once after a revocation (the second rebalance).
//
// Consuming: every tick it reads up to records_per_tick records per owned partition straight
// from the partition logs (up to the last stable offset), counting them, and auto-commits its
// positions every auto_commit_interval. A delivery below what the group was delivered before
// (DeliveredOffsets) publishes a records_replayed event and counts as replayed.
//
// Stopping: leave() commits and sends LeaveGroup; crash() stops without a word, so the
// coordinator expires the member after its session timeout. Either way the consumer stays
// readable (state "stopped"). Callbacks hold a weak_ptr and are ignored after a stop.
// Not thread-safe: runs on the broker's network thread; create it with std::make_shared.
#pragma once

#include <asio/any_io_executor.hpp>
#include <asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "broker/node/broker.h"
#include "broker/playground/delivered_offsets.h"
#include "broker/playground/playground_timing.h"
#include "group/assignor.h"

namespace kgroups::broker::playground {

// The client id every simulated consumer gives the coordinator.
inline constexpr std::string_view kPlaygroundClientId = "kgroups-playground";

struct ConsumerSettings {
  std::string group;
  std::string topic;
  const Assignor* assignor = nullptr;  // never nullptr once set up; lives forever
  std::int32_t session_timeout_ms = 10000;
};

class SimulatedConsumer : public std::enable_shared_from_this<SimulatedConsumer> {
 public:
  enum class State { kJoining, kSyncing, kStable, kStopped };

  // `broker` and `delivered` must outlive the consumer.
  SimulatedConsumer(int id, ConsumerSettings settings, Broker& broker, DeliveredOffsets& delivered,
                    asio::any_io_executor executor, const PlaygroundTiming& timing);

  // Joins the group and starts ticking.
  void start();
  // Commits its positions and leaves the group (LeaveGroup), then stops.
  void leave();
  // Stops at once without leaving: the coordinator expires it after its session timeout.
  void crash();

  [[nodiscard]] int id() const { return id_; }
  [[nodiscard]] const ConsumerSettings& settings() const { return settings_; }
  [[nodiscard]] RebalanceProtocol protocol() const { return settings_.assignor->protocol(); }
  // "" until the coordinator gave it a member id.
  [[nodiscard]] const std::string& member_id() const { return member_id_; }
  [[nodiscard]] State state() const { return state_; }
  // The partitions it owns now, ascending.
  [[nodiscard]] std::vector<std::int32_t> assignment() const;
  [[nodiscard]] std::int64_t consumed() const { return consumed_; }
  [[nodiscard]] std::int64_t replayed() const { return replayed_; }
  // Why it stopped on its own (a JoinGroup or SyncGroup error it cannot recover from); "".
  [[nodiscard]] const std::string& error() const { return error_; }

 private:
  using Clock = std::chrono::steady_clock;

  void schedule_tick();
  void on_tick();
  void join();
  void on_joined(std::uint64_t epoch, const JoinGroupResult& result);
  std::vector<MemberAssignment> lead(const JoinGroupResult& result) const;
  void on_synced(std::uint64_t epoch, const SyncGroupResult& result);
  void apply_assignment(const std::vector<std::int32_t>& assigned);
  void heartbeat();
  // The group is rebalancing: rejoin, eagerly dropping every partition first.
  void rejoin_for_rebalance();
  // The coordinator no longer knows this member (or its generation): drop everything, rejoin.
  void rejoin_lost(bool forget_member_id);
  // Rejoins as the coordinator's `error` asks (rebalance in progress, unknown member, illegal
  // generation); returns false for any other error.
  bool rejoin_after(GroupError error);
  void consume();
  void consume_partition(const StoredTopic& topic, std::int32_t partition, std::int64_t& position);
  // Commits the positions of `partitions` (every owned one when empty) that moved since the
  // last commit.
  void commit(const std::vector<std::int32_t>& partitions = {});
  // Where an assigned partition starts: the committed offset, else the log start.
  std::map<std::int32_t, std::int64_t> starting_positions(
      const std::vector<std::int32_t>& partitions);
  void stop(std::string error);

  int id_;
  ConsumerSettings settings_;
  Broker& broker_;
  DeliveredOffsets& delivered_;
  asio::any_io_executor executor_;
  PlaygroundTiming timing_;
  asio::steady_timer timer_;
  State state_ = State::kJoining;
  std::string member_id_;
  std::int32_t generation_ = -1;
  // Changes on every join and stop, so a callback from an earlier call is ignored.
  std::uint64_t epoch_ = 0;
  std::map<std::int32_t, std::int64_t> positions_;  // owned partition -> next offset to read
  std::map<std::int32_t, std::int64_t> committed_;  // what this member committed last
  Clock::time_point last_heartbeat_{};
  Clock::time_point last_commit_{};
  Clock::time_point join_retry_at_ = Clock::time_point::max();
  std::int64_t consumed_ = 0;
  std::int64_t replayed_ = 0;
  std::string error_;
};

}  // namespace kgroups::broker::playground
