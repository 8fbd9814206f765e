// SPDX-License-Identifier: Apache-2.0
//
// ElectLeaders (key 43): v0-2. Admin clients (kafka-leader-election, AdminClient's
// electLeaders) ask the controller to elect partition leaders; any broker answers, as a KRaft
// broker forwards it to the controller.
// - election_type 0, preferred: the partition's first replica leads, at the next leader
//   epoch, when it runs and is in the ISR (PREFERRED_LEADER_NOT_AVAILABLE otherwise;
//   ELECTION_NOT_NEEDED when it leads already).
// - election_type 1, unclean: a partition without a leader gets one from its running
//   replicas, in sync or not (the log is cut to what it holds, as an unclean election does);
//   ELECTION_NOT_NEEDED when it has a leader, ELIGIBLE_LEADERS_NOT_AVAILABLE when no replica
//   runs.
// - Any other type: INVALID_REQUEST for the request and every partition named, nothing
//   elected.
// - null topic_partitions: every partition of every topic; as Kafka, the partitions that need
//   no election are left out of the answer. Named partitions that do not exist get
//   UNKNOWN_TOPIC_OR_PARTITION. Every error comes with a message.
// - v0: always preferred (no election_type). v1: election_type and a top-level error code.
//   v2: flexible.
// The work is one election per partition named (the frame bounds them) or, for null, per
// partition of the cluster (at most --max-partitions). timeout_ms is not needed: elections
// take effect before the answer.
#include <string>

#include "broker/handlers/authorization_error.h"
#include "broker/handlers/handlers.h"
#include "protocol/messages/elect_leaders.h"

namespace kgroups::broker::handlers {
namespace {

constexpr std::int8_t kPreferred = 0;
constexpr std::int8_t kUnclean = 1;

using PartitionResult = protocol::ElectLeadersResponse::PartitionResult;

std::string partition_name(std::string_view topic, std::int32_t partition) {
  return std::string(topic) + "-" + std::to_string(partition);
}

// Elects a leader for partition `partition` of `topic` (which must exist).
PartitionResult elect(ReplicationController& replication, StoredTopic& topic,
                      std::int32_t partition, std::int8_t type) {
  PartitionResult result{.partition_id = partition};
  result.error_code = type == kPreferred ? replication.elect_preferred(topic, partition)
                                         : replication.elect_unclean(topic, partition);
  const std::string name = partition_name(topic.name, partition);
  switch (result.error_code) {
    case protocol::ErrorCode::kElectionNotNeeded:
      result.error_message = type == kPreferred
                                 ? name + " is led by its preferred replica already"
                                 : name + " has a leader: an unclean election is not needed";
      break;
    case protocol::ErrorCode::kPreferredLeaderNotAvailable:
      result.error_message = "the preferred replica of " + name +
                             " is not running or not in sync: start its broker and wait for "
                             "it to catch up";
      break;
    case protocol::ErrorCode::kEligibleLeadersNotAvailable:
      result.error_message = "no replica of " + name + " runs: start one of its brokers";
      break;
    default:
      break;
  }
  return result;
}

}  // namespace

asio::awaitable<Reply> handle_elect_leaders(RequestContext& ctx) {
  const auto request = protocol::ElectLeadersRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  const std::int8_t type = ctx.version() >= 1 ? request->election_type : kPreferred;
  Cluster& cluster = ctx.broker.cluster();
  ReplicationController& replication = ctx.broker.replication();
  protocol::ElectLeadersResponse response;
  const bool known_type = type == kPreferred || type == kUnclean;
  if (!known_type) response.error_code = protocol::ErrorCode::kInvalidRequest;
  // Kafka: ALTER on the cluster, else CLUSTER_AUTHORIZATION_FAILED at the top (v1+) and for every
  // partition named; nothing elected.
  if (const protocol::ErrorCode denied = cluster_authorization_error(ctx, AclOperation::kAlter);
      denied != protocol::ErrorCode::kNone) {
    protocol::ElectLeadersResponse refused;
    refused.error_code = denied;
    ctx.count_error(denied);
    for (const auto& request_topic :
         request->topic_partitions.value_or(decltype(request->topic_partitions)::value_type{})) {
      auto& out_topic = refused.replica_election_results.emplace_back();
      out_topic.topic = std::string(request_topic.topic);
      for (const std::int32_t partition : request_topic.partitions) {
        out_topic.partition_result.push_back(
            {.partition_id = partition,
             .error_code = denied,
             .error_message = std::string(authorization_message(denied))});
      }
    }
    refused.encode(ctx.response, ctx.version());
    co_return Reply::kSend;
  }

  if (!request->topic_partitions.has_value()) {
    if (known_type) {
      for (const auto& [name, topic] : cluster.topics()) {
        auto& out_topic = response.replica_election_results.emplace_back();
        out_topic.topic = name;
        for (std::size_t p = 0; p < topic->partitions.size(); ++p) {
          PartitionResult result = elect(replication, *topic, static_cast<std::int32_t>(p), type);
          if (result.error_code == protocol::ErrorCode::kElectionNotNeeded) continue;
          ctx.count_error(result.error_code);
          out_topic.partition_result.push_back(std::move(result));
        }
      }
    }
    response.encode(ctx.response, ctx.version());
    co_return Reply::kSend;
  }

  for (const auto& request_topic : *request->topic_partitions) {
    auto& out_topic = response.replica_election_results.emplace_back();
    out_topic.topic = std::string(request_topic.topic);
    StoredTopic* topic = cluster.find_topic(request_topic.topic);
    for (const std::int32_t partition : request_topic.partitions) {
      PartitionResult result{.partition_id = partition};
      if (!known_type) {
        result.error_code = protocol::ErrorCode::kInvalidRequest;
        result.error_message = "election_type " + std::to_string(type) +
                               " is not known: use 0 (preferred) or 1 (unclean)";
      } else if (topic == nullptr || partition < 0 ||
                 std::cmp_greater_equal(partition, topic->partitions.size())) {
        result.error_code = protocol::ErrorCode::kUnknownTopicOrPartition;
        result.error_message = "there is no partition " +
                               partition_name(request_topic.topic, partition) +
                               ": check the topic name and its partition count";
      } else {
        result = elect(replication, *topic, partition, type);
      }
      ctx.count_error(result.error_code);
      out_topic.partition_result.push_back(std::move(result));
    }
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
