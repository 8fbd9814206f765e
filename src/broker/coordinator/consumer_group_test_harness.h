// SPDX-License-Identifier: Apache-2.0
//
// ConsumerGroupHarness: a ConsumerGroupCoordinator on a ManualClock and an
// InMemoryTopicCatalog, with SimulatedConsumer playing the client side of
// ConsumerGroupHeartbeat (it owns exactly the last assignment it was sent, and
// reports it), for the consumer-group unit tests. Not thread-safe.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "broker/coordinator/clock.h"
#include "broker/coordinator/consumer_group_coordinator.h"
#include "broker/coordinator/in_memory_topic_catalog.h"

namespace kgroups::broker {

// What a test's KIP-848 consumer knows of itself between heartbeats: its subscription, the
// member id and epoch the coordinator gave it, and the partitions it owns.
struct HeartbeatingConsumer {
  std::string group_id = "group";
  std::vector<std::string> topics{};
  std::optional<std::string> instance_id{};
  std::optional<std::string> server_assignor{};
  std::string member_id{};  // "" until the coordinator gives one (v0)
  std::int32_t member_epoch = 0;
  bool joined = false;
  ConsumerAssignment owned{};
};

class ConsumerGroupHarness {
 public:
  explicit ConsumerGroupHarness(ConsumerGroupConfig config = {})
      : coordinator_(config, clock_, catalog_,
                     [this](std::string_view line) { log_.emplace_back(line); }) {}

  ConsumerGroupCoordinator& coordinator() { return coordinator_; }
  InMemoryTopicCatalog& catalog() { return catalog_; }
  [[nodiscard]] const std::vector<std::string>& log() const { return log_; }

  void advance(std::chrono::milliseconds duration) {
    clock_.advance(duration);
    coordinator_.poll_timers();
  }

  static ConsumerGroupHeartbeatParams join_params(const HeartbeatingConsumer& consumer) {
    ConsumerGroupHeartbeatParams params;
    params.group_id = consumer.group_id;
    params.member_id = consumer.member_id;
    params.member_epoch = kJoinMemberEpoch;
    params.instance_id = consumer.instance_id;
    params.rebalance_timeout_ms = 30000;
    params.subscribed_topic_names = consumer.topics;
    params.server_assignor = consumer.server_assignor;
    params.owned_topic_partitions = std::vector<TopicPartitions>{};
    params.client_id = "client";
    params.client_host = "/127.0.0.1";
    return params;
  }

  static ConsumerGroupHeartbeatParams heartbeat_params(const HeartbeatingConsumer& consumer) {
    ConsumerGroupHeartbeatParams params;
    params.group_id = consumer.group_id;
    params.member_id = consumer.member_id;
    params.member_epoch = consumer.member_epoch;
    params.instance_id = consumer.instance_id;
    params.owned_topic_partitions = to_topic_partitions(consumer.owned);
    params.client_id = "client";
    params.client_host = "/127.0.0.1";
    return params;
  }

  // Sends `params` for the consumer and applies the answer as a client does: a new
  // epoch and member id, the assignment when sent, and on fencing gives up everything.
  ConsumerGroupHeartbeatResult send(HeartbeatingConsumer& consumer,
                                    const ConsumerGroupHeartbeatParams& params) {
    ConsumerGroupHeartbeatResult result = coordinator_.heartbeat(params);
    if (result.error == GroupError::kNone) {
      consumer.member_id = result.member_id;
      consumer.member_epoch = result.member_epoch;
      consumer.joined = result.member_epoch >= 0;
      if (!consumer.joined) consumer.owned.clear();
      if (result.assignment) consumer.owned = from_topic_partitions(*result.assignment);
    } else if (result.error == GroupError::kFencedMemberEpoch ||
               result.error == GroupError::kUnknownMemberId) {
      consumer.joined = false;
      consumer.member_epoch = 0;
      consumer.owned.clear();
    }
    return result;
  }

  ConsumerGroupHeartbeatResult join(HeartbeatingConsumer& consumer) {
    return send(consumer, join_params(consumer));
  }
  ConsumerGroupHeartbeatResult heartbeat(HeartbeatingConsumer& consumer) {
    return send(consumer, heartbeat_params(consumer));
  }
  ConsumerGroupHeartbeatResult leave(HeartbeatingConsumer& consumer,
                                     std::int32_t epoch = kLeaveMemberEpoch) {
    ConsumerGroupHeartbeatParams params = heartbeat_params(consumer);
    params.member_epoch = epoch;
    return send(consumer, params);
  }

  // Heartbeats every joined consumer, round after round, until a round changes no
  // epoch and no assignment (at most `max_rounds`); returns the rounds it took.
  int settle(const std::vector<HeartbeatingConsumer*>& consumers, int max_rounds = 20) {
    for (int round = 1; round <= max_rounds; ++round) {
      bool changed = false;
      for (HeartbeatingConsumer* consumer : consumers) {
        if (!consumer->joined) continue;
        const std::int32_t epoch = consumer->member_epoch;
        const ConsumerAssignment owned = consumer->owned;
        EXPECT_EQ(heartbeat(*consumer).error, GroupError::kNone);
        changed = changed || epoch != consumer->member_epoch || owned != consumer->owned;
      }
      if (!changed) return round;
    }
    return max_rounds;
  }

  // Returns the consumer's partitions of `topic`.
  std::vector<std::int32_t> partitions(const HeartbeatingConsumer& consumer, const TopicId& topic) {
    auto entry = consumer.owned.find(topic);
    if (entry == consumer.owned.end()) return {};
    return {entry->second.begin(), entry->second.end()};
  }

  ConsumerGroupDescription describe(const std::string& group_id = "group") {
    return coordinator_.describe_group(group_id);
  }

 private:
  ManualClock clock_;
  InMemoryTopicCatalog catalog_;
  std::vector<std::string> log_;
  ConsumerGroupCoordinator coordinator_;
};

// Returns whether no partition appears in two of the assignments.
inline bool disjoint(const std::vector<const ConsumerAssignment*>& assignments) {
  std::set<std::pair<TopicId, std::int32_t>> seen;
  for (const ConsumerAssignment* assignment : assignments) {
    for (const auto& [topic, partitions] : *assignment) {
      for (std::int32_t partition : partitions) {
        if (!seen.emplace(topic, partition).second) return false;
      }
    }
  }
  return true;
}

}  // namespace kgroups::broker
