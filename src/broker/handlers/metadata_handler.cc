// SPDX-License-Identifier: Apache-2.0
//
// Metadata (key 3): v0-12.
// - v0: an empty topic list asks for all topics; unknown topics are auto-created (broker
//   setting). kafka-python sends v0 while probing the broker version.
// - v1: a null list asks for all, an empty one for none; adds rack (null), controller_id
//   (this broker: admin clients need a controller) and is_internal (true for
//   __consumer_offsets).
// - v2: cluster_id. v3: throttle_time_ms (0).
// - v4: allow_auto_topic_creation; false gives UNKNOWN_TOPIC_OR_PARTITION for unknown topics.
// - v5: offline replicas: those on stopped or isolated brokers. v7: leader epochs.
// - v8: authorized operations, answered INT32_MIN ("not computed"): kgroupsd has no ACLs.
// - v9: flexible. v10: topic ids in the answer. v12: topics asked by id (name null); an
//   unknown id gets UNKNOWN_TOPIC_ID with a null name.
// An illegal topic name gets INVALID_TOPIC_EXCEPTION; a topic that cannot be auto-created
// because of --max-topics or --max-partitions gets UNKNOWN_TOPIC_OR_PARTITION (with a log
// line). A topic named more than once is described once (Kafka reads the list into a set),
// so the response grows with the topics that exist, not with the request's repetitions.
// Brokers (--brokers N): the brokers that run are listed (and an isolated broker lists itself
// too), with the controller; each partition names its leader (none: LEADER_NOT_AVAILABLE),
// leader epoch, replicas, ISR and offline replicas as the controller knows them. One broker:
// it leads every partition and is the only replica and in-sync replica.
#include <unordered_set>

#include "broker/handlers/handlers.h"
#include "protocol/messages/metadata.h"

namespace kgroups::broker::handlers {
namespace {

protocol::MetadataResponse::Topic describe(const StoredTopic& topic,
                                           const ReplicationController& replication) {
  protocol::MetadataResponse::Topic out;
  out.name = topic.name;
  out.topic_id = topic.id;
  out.is_internal = topic.internal;
  out.partitions.reserve(topic.partitions.size());
  for (std::size_t i = 0; i < topic.partitions.size(); ++i) {
    const PartitionReplicas& replicas = topic.partitions[i].replicas();
    std::vector<std::int32_t> offline;
    for (const ReplicaState& replica : replicas.replicas()) {
      if (replication.state(replica.node) != BrokerState::kRunning) offline.push_back(replica.node);
    }
    const std::int32_t leader = replicas.leader();
    out.partitions.push_back({.error_code = leader == PartitionReplicas::kNoLeader
                                                ? protocol::ErrorCode::kLeaderNotAvailable
                                                : protocol::ErrorCode::kNone,
                              .partition_index = static_cast<std::int32_t>(i),
                              .leader_id = leader,
                              .leader_epoch = replicas.leader_epoch(),
                              .replica_nodes = replicas.replica_nodes(),
                              .isr_nodes = replicas.isr_nodes(),
                              .offline_replicas = std::move(offline)});
  }
  return out;
}

}  // namespace

asio::awaitable<Reply> handle_metadata(RequestContext& ctx) {
  const auto request = protocol::MetadataRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");

  const BrokerConfig& config = ctx.broker.config();
  Cluster& cluster = ctx.broker.cluster();
  const ReplicationController& replication = ctx.broker.replication();
  protocol::MetadataResponse response;
  for (std::int32_t node = 0; node < replication.brokers(); ++node) {
    if (replication.state(node) != BrokerState::kRunning && node != ctx.node_id) continue;
    const Broker::NodeAddress& address = ctx.broker.node_address(node, ctx.listener);
    response.brokers.push_back(
        {.node_id = node, .host = address.host, .port = address.port, .rack = std::nullopt});
  }
  response.cluster_id = config.cluster_id;
  response.controller_id = replication.controller_id();

  // v0 asks for every topic with an empty list; v1+ with a null one.
  const bool all_topics = !request->topics || (ctx.version() == 0 && request->topics->empty());
  if (all_topics) {
    for (const auto& [name, topic] : cluster.topics()) {
      response.topics.push_back(describe(*topic, replication));
    }
  } else {
    const bool may_create = cluster.auto_create() && request->allow_auto_topic_creation;
    std::unordered_set<std::string_view> seen;
    std::unordered_set<const StoredTopic*> seen_by_id;
    for (const protocol::MetadataRequest::Topic& wanted : *request->topics) {
      if (!wanted.name) {
        const StoredTopic* topic = cluster.find_topic(wanted.topic_id);
        if (topic != nullptr && !seen_by_id.insert(topic).second) continue;
        if (topic != nullptr) {
          response.topics.push_back(describe(*topic, replication));
          continue;
        }
        protocol::MetadataResponse::Topic missing;
        missing.name = std::nullopt;
        missing.topic_id = wanted.topic_id;
        missing.error_code = protocol::ErrorCode::kUnknownTopicId;
        response.topics.push_back(std::move(missing));
        continue;
      }
      const std::string_view name = *wanted.name;
      if (!seen.insert(name).second) continue;
      const StoredTopic* topic =
          may_create ? cluster.find_or_create_topic(name) : cluster.find_topic(name);
      if (topic != nullptr) {
        response.topics.push_back(describe(*topic, replication));
        continue;
      }
      protocol::MetadataResponse::Topic missing;
      missing.name = std::string(name);
      missing.error_code = Cluster::is_valid_topic_name(name)
                               ? protocol::ErrorCode::kUnknownTopicOrPartition
                               : protocol::ErrorCode::kInvalidTopicException;
      response.topics.push_back(std::move(missing));
    }
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
