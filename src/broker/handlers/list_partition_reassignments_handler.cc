// SPDX-License-Identifier: Apache-2.0
//
// ListPartitionReassignments (key 46): v0, flexible. Admin clients list the reassignments in
// progress: per partition its current replica set (targets first, then the leaving
// replicas), the replicas being added and those being removed. Any broker answers.
// - null topics: every reassignment in progress (a walk over the cluster's partitions, at
//   most --max-partitions). Named topics: their named partitions that are being reassigned;
//   unknown topics and partitions, and partitions not being reassigned, are left out, as
//   Kafka leaves them out. A topic with nothing in progress is not listed.
// timeout_ms is not needed.
#include <string>

#include "broker/handlers/authorization_error.h"
#include "broker/handlers/handlers.h"
#include "protocol/messages/list_partition_reassignments.h"

namespace kgroups::broker::handlers {
namespace {

using Response = protocol::ListPartitionReassignmentsResponse;

// Adds partition `partition` of `topic` to `out` if it is being reassigned.
void list_partition(const StoredTopic& topic, std::int32_t partition, Response::Topic& out) {
  if (partition < 0 || std::cmp_greater_equal(partition, topic.partitions.size())) return;
  const PartitionReplicas& replicas =
      topic.partitions[static_cast<std::size_t>(partition)].replicas();
  if (!replicas.reassignment().has_value()) return;
  out.partitions.push_back({.partition_index = partition,
                            .replicas = replicas.replica_nodes(),
                            .adding_replicas = replicas.reassignment()->adding,
                            .removing_replicas = replicas.reassignment()->removing});
}

}  // namespace

asio::awaitable<Reply> handle_list_partition_reassignments(RequestContext& ctx) {
  const auto request = protocol::ListPartitionReassignmentsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  const Cluster& cluster = ctx.broker.cluster();
  Response response;
  // Kafka: DESCRIBE on the cluster, else CLUSTER_AUTHORIZATION_FAILED and no topics.
  response.error_code = cluster_authorization_error(ctx, AclOperation::kDescribe);
  if (response.error_code != protocol::ErrorCode::kNone) {
    response.error_message = std::string(authorization_message(response.error_code));
    ctx.count_error(response.error_code);
    response.encode(ctx.response, ctx.version());
    co_return Reply::kSend;
  }
  auto add_topic = [&response](Response::Topic&& topic) {
    if (!topic.partitions.empty()) response.topics.push_back(std::move(topic));
  };
  if (!request->topics.has_value()) {
    for (const auto& [name, topic] : cluster.topics()) {
      Response::Topic out{.name = name};
      for (std::size_t p = 0; p < topic->partitions.size(); ++p) {
        list_partition(*topic, static_cast<std::int32_t>(p), out);
      }
      add_topic(std::move(out));
    }
  } else {
    for (const auto& request_topic : *request->topics) {
      const StoredTopic* topic = cluster.find_topic(request_topic.name);
      if (topic == nullptr) continue;
      Response::Topic out{.name = topic->name};
      for (const std::int32_t partition : request_topic.partition_indexes) {
        list_partition(*topic, partition, out);
      }
      add_topic(std::move(out));
    }
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
