// SPDX-License-Identifier: Apache-2.0
//
// DescribeLogDirs (key 35): v0-4. Admin clients (kafka-log-dirs, AdminClient's
// describeLogDirs) ask each broker for its log directories; the broker the request reaches
// answers for its own replicas, as Kafka's do.
// - One log directory per broker, named "/kgroupsd/broker-<node id>" (made up: the logs are
//   in memory), holding every partition with a replica on that broker.
// - Per partition: partition_size, the bytes of the records the replica holds (a follower's
//   log is the leader's up to its log end offset); offset_lag, the leader's log end offset
//   minus the replica's (0 for the leader; Kafka counts from the replica's high watermark,
//   which in one process is the leader's); is_future_key false (there is no
//   AlterReplicaLogDirs).
// - null topics: every partition of the broker; named: those of the named partitions the
//   broker holds (the others are left out, as Kafka leaves them out).
// - v1: same. v2: flexible. v3: top-level error code (0). v4: total_bytes is the memory
//   budget of all logs (--max-memory's share, shared by the brokers; -1 without a bound),
//   usable_bytes what of it is free.
// The work is per partition of the cluster (at most --max-partitions) or named, plus, for a
// follower behind the leader, the batches it lacks.
#include <limits>
#include <string>

#include "broker/handlers/authorization_error.h"
#include "broker/handlers/handlers.h"
#include "protocol/messages/describe_log_dirs.h"

namespace kgroups::broker::handlers {
namespace {

using Response = protocol::DescribeLogDirsResponse;

// The bytes of `log`'s records below `log_end_offset`: a replica's share of the shared log.
std::int64_t bytes_below(const BatchLog& log, std::int64_t log_end_offset) {
  auto bytes = static_cast<std::int64_t>(log.size_bytes());
  for (const StoredBatch& batch : log.batches_from(log_end_offset)) {
    bytes -= static_cast<std::int64_t>(batch.size_bytes);
  }
  return bytes;
}

// Adds partition `partition` of `topic` to `out` if broker `node` holds a replica of it.
void describe_partition(const StoredTopic& topic, std::int32_t partition, std::int32_t node,
                        Response::Topic& out) {
  if (partition < 0 || std::cmp_greater_equal(partition, topic.partitions.size())) return;
  const BatchLog& log = topic.partitions[static_cast<std::size_t>(partition)];
  const PartitionReplicas& replicas = log.replicas();
  const ReplicaState* replica = replicas.find(node);
  if (replica == nullptr) return;
  const std::int64_t log_end = replicas.leader() == node || replicas.stale_leader().node == node
                                   ? log.log_end_offset()
                                   : replica->log_end_offset;
  out.partitions.push_back({.partition_index = partition,
                            .partition_size = bytes_below(log, log_end),
                            .offset_lag = log.log_end_offset() - log_end,
                            .is_future_key = false});
}

}  // namespace

asio::awaitable<Reply> handle_describe_log_dirs(RequestContext& ctx) {
  const auto request = protocol::DescribeLogDirsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  const Cluster& cluster = ctx.broker.cluster();
  Response response;
  // Kafka: DESCRIBE on the cluster, else CLUSTER_AUTHORIZATION_FAILED (v3+) and no log dirs.
  response.error_code = cluster_authorization_error(ctx, AclOperation::kDescribe);
  if (response.error_code != protocol::ErrorCode::kNone) {
    ctx.count_error(response.error_code);
    response.encode(ctx.response, ctx.version());
    co_return Reply::kSend;
  }
  auto& dir = response.results.emplace_back();
  dir.log_dir = "/kgroupsd/broker-" + std::to_string(ctx.node_id);
  const std::int64_t budget = cluster.config().log_memory_bytes;
  if (budget != std::numeric_limits<std::int64_t>::max()) {
    dir.total_bytes = budget;
    dir.usable_bytes = std::max<std::int64_t>(0, budget - cluster.log_memory_used());
  }
  auto add_topic = [&dir](Response::Topic&& topic) {
    if (!topic.partitions.empty()) dir.topics.push_back(std::move(topic));
  };
  if (!request->topics.has_value()) {
    for (const auto& [name, topic] : cluster.topics()) {
      Response::Topic out{.name = name};
      for (std::size_t p = 0; p < topic->partitions.size(); ++p) {
        describe_partition(*topic, static_cast<std::int32_t>(p), ctx.node_id, out);
      }
      add_topic(std::move(out));
    }
  } else {
    for (const auto& request_topic : *request->topics) {
      const StoredTopic* topic = cluster.find_topic(request_topic.topic);
      if (topic == nullptr) continue;
      Response::Topic out{.name = topic->name};
      for (const std::int32_t partition : request_topic.partitions) {
        describe_partition(*topic, partition, ctx.node_id, out);
      }
      add_topic(std::move(out));
    }
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
