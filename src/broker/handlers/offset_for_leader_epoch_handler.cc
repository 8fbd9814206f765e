// SPDX-License-Identifier: Apache-2.0
//
// OffsetForLeaderEpoch (key 23): v0-4, for consumers that check for log truncation (KIP-320).
// - This broker is every partition's only leader, at leader epoch 0 for ever (no elections),
//   so a log is never truncated: the end offset of epoch 0 is the high watermark.
// - Each partition is answered as Kafka's leader-epoch cache answers with one epoch starting
//   at offset 0: leader_epoch 0 gives epoch 0 and the high watermark; an epoch above it is
//   unknown and gives epoch -1, end offset -1, as does a negative one.
// - v1: leader_epoch in the answer. v2: current_leader_epoch is checked: above 0 gets
//   UNKNOWN_LEADER_EPOCH, below 0 other than -1 ("not given") FENCED_LEADER_EPOCH;
//   throttle_time_ms (0). v3: replica_id (a follower's id; ignored). v4: flexible.
// - UNKNOWN_TOPIC_OR_PARTITION for a partition that does not exist (no auto-creation). A
//   partition named more than once is answered once.
#include <string>
#include <unordered_set>

#include "broker/handlers/handlers.h"
#include "broker/storage/partition_key.h"
#include "protocol/messages/offset_for_leader_epoch.h"

namespace kgroups::broker::handlers {
namespace {

using protocol::ErrorCode;
using Response = protocol::OffsetForLeaderEpochResponse;

constexpr std::int32_t kLeaderEpoch = 0;  // the only epoch any partition here has
constexpr std::int32_t kNoEpoch = -1;

Response::Partition answer(Cluster& cluster, std::string_view topic,
                           const protocol::OffsetForLeaderEpochRequest::Partition& asked) {
  Response::Partition out{.partition = asked.partition};
  const BatchLog* log = cluster.find_partition(topic, asked.partition);
  if (log == nullptr) {
    out.error_code = ErrorCode::kUnknownTopicOrPartition;
  } else if (asked.current_leader_epoch > kLeaderEpoch) {
    out.error_code = ErrorCode::kUnknownLeaderEpoch;
  } else if (asked.current_leader_epoch < kLeaderEpoch && asked.current_leader_epoch != kNoEpoch) {
    out.error_code = ErrorCode::kFencedLeaderEpoch;
  } else if (asked.leader_epoch == kLeaderEpoch) {
    out.leader_epoch = kLeaderEpoch;
    out.end_offset = log->high_watermark();
  }
  return out;
}

}  // namespace

asio::awaitable<Reply> handle_offset_for_leader_epoch(RequestContext& ctx) {
  const auto request = protocol::OffsetForLeaderEpochRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  Cluster& cluster = ctx.broker.cluster();
  Response response;
  std::unordered_set<PartitionKey, PartitionKeyHash> seen;
  for (const auto& topic : request->topics) {
    Response::Topic* out = nullptr;
    for (const auto& partition : topic.partitions) {
      if (!seen.insert({topic.topic, partition.partition}).second) continue;
      if (out == nullptr) {
        out = &response.topics.emplace_back();
        out->topic = std::string(topic.topic);
      }
      out->partitions.push_back(answer(cluster, topic.topic, partition));
    }
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
