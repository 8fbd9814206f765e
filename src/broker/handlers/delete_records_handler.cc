// SPDX-License-Identifier: Apache-2.0
//
// DeleteRecords (key 21): v0-2.
// - v0: moves each partition's log start offset up to `offset` (-1: the high watermark),
//   dropping the stored segments wholly below it; an offset inside a batch is allowed (the
//   batch stays; fetching below the new start gets OFFSET_OUT_OF_RANGE and ListOffsets
//   earliest answers it). An offset at or below the current start changes nothing. Answers
//   the partition's new log start offset (low_watermark). Errors per partition (low_watermark
//   -1): UNKNOWN_TOPIC_OR_PARTITION, OFFSET_OUT_OF_RANGE (beyond the high watermark, or below
//   -1).
// - v1: same. v2: flexible.
// timeout_ms is not needed: there are no replicas to wait for.
#include <string>

#include "broker/handlers/handlers.h"
#include "protocol/messages/delete_records.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_delete_records(RequestContext& ctx) {
  const auto request = protocol::DeleteRecordsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  Cluster& cluster = ctx.broker.cluster();
  protocol::DeleteRecordsResponse response;
  for (const auto& request_topic : request->topics) {
    auto& out_topic = response.topics.emplace_back();
    out_topic.name = std::string(request_topic.name);
    StoredTopic* topic = cluster.find_topic(request_topic.name);
    // Kafka: DELETE on each topic, else TOPIC_AUTHORIZATION_FAILED for its partitions.
    const bool denied =
        !ctx.allowed(AclOperation::kDelete, AclResourceType::kTopic, request_topic.name);
    for (const auto& request_partition : request_topic.partitions) {
      auto& out = out_topic.partitions.emplace_back();
      out.partition_index = request_partition.partition_index;
      out.low_watermark = -1;
      if (denied) {
        out.error_code = protocol::ErrorCode::kTopicAuthorizationFailed;
        ctx.count_error(out.error_code);
        continue;
      }
      if (topic == nullptr || request_partition.partition_index < 0 ||
          std::cmp_greater_equal(request_partition.partition_index, topic->partitions.size())) {
        out.error_code = protocol::ErrorCode::kUnknownTopicOrPartition;
        continue;
      }
      const protocol::Result<std::int64_t> start = cluster.delete_records(
          *topic, request_partition.partition_index, request_partition.offset);
      if (start.has_value()) {
        out.low_watermark = start.value();
      } else {
        out.error_code = start.error();
      }
    }
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
