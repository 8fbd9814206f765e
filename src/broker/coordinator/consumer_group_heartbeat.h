// SPDX-License-Identifier: Apache-2.0
//
// ConsumerGroupHeartbeat (KIP-848, API 68, v0-1) as the consumer-group coordinator
// takes and answers it, apart from the wire format. One request both joins (epoch 0),
// heartbeats and acknowledges revocations (epoch > 0), and leaves (epoch -1, or -2
// for a static member that will come back).
// - v0: the coordinator generates the member id on join (member_id ""). v1: the
//   client generates it (a UUID string) and keeps it for its lifetime. Both work:
//   an empty member_id on join asks the coordinator for one.
// - Regular-expression subscriptions (subscribed_topic_regex) are not supported:
//   a request carrying one gets INVALID_REQUEST, "regex subscriptions are not
//   supported". An empty regex is no regex, as in Kafka (librdkafka 2.12 sends "").
// - Rack-aware assignment is not implemented: rack_id is kept and described only.
// Value types; thread-safe as any value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "broker/coordinator/consumer_assignment.h"
#include "broker/coordinator/group_error.h"

namespace kgroups::broker {

// The member epochs with a meaning of their own.
inline constexpr std::int32_t kJoinMemberEpoch = 0;
inline constexpr std::int32_t kLeaveMemberEpoch = -1;
inline constexpr std::int32_t kStaticLeaveMemberEpoch = -2;

struct ConsumerGroupHeartbeatParams {
  std::string group_id;
  std::string member_id;  // "" on a v0 join; the client's own UUID string in v1
  std::int32_t member_epoch = kJoinMemberEpoch;
  std::optional<std::string> instance_id;  // set for static members; never ""
  std::optional<std::string> rack_id;      // nullopt: unchanged; never ""
  std::int32_t rebalance_timeout_ms = -1;  // -1: unchanged; required on join
  // nullopt: unchanged; required (non-empty) on join.
  std::optional<std::vector<std::string>> subscribed_topic_names;
  std::optional<std::string> subscribed_topic_regex;  // refused: INVALID_REQUEST
  std::optional<std::string> server_assignor;         // nullopt: unchanged
  // What the member owns now. nullopt: unchanged since the last heartbeat (then a
  // pending revocation cannot complete); must be present and empty on join.
  std::optional<std::vector<TopicPartitions>> owned_topic_partitions;
  std::string client_id;
  std::string client_host;  // Kafka's form, "/127.0.0.1"
};

struct ConsumerGroupHeartbeatResult {
  GroupError error = GroupError::kNone;
  std::string error_message;      // empty with kNone
  std::string member_id;          // the member's id (generated on a v0 join)
  std::int32_t member_epoch = 0;  // the member's epoch after this heartbeat
  std::int32_t heartbeat_interval_ms = 0;
  // The member's partitions, sent when they changed, on join, and on a full request
  // (rebalance timeout, subscription and owned partitions all given), as Kafka does;
  // nullopt otherwise (the client keeps what it has).
  std::optional<std::vector<TopicPartitions>> assignment;
};

}  // namespace kgroups::broker
