// SPDX-License-Identifier: Apache-2.0
//
// ShareFetch (key 78, KIP-932): v1-2, flexible (v0 was Kafka 4.0's early access; librdkafka
// 2.15 sends v1).
// - The share session (ShareSessionCache): epoch 0 opens it with the request's partitions
//   (acknowledgements in it get INVALID_REQUEST), later requests carry the next epoch and
//   add or forget partitions, -1 closes it after its acknowledgements and releases the
//   member's acquired records. Session errors (SHARE_SESSION_NOT_FOUND,
//   INVALID_SHARE_SESSION_EPOCH, SHARE_SESSION_LIMIT_REACHED) are top-level.
// - Acknowledgements first (per partition: acknowledge_error_code INVALID_RECORD_STATE when
//   a record is not held by the member, which changes nothing on that partition;
//   INVALID_REQUEST for a malformed batch), then acquisition: each partition from its oldest
//   available record, whole stored batches with the acquired ranges and delivery counts
//   (ShareFetchService). acquisition_lock_timeout_ms is the group's lock duration.
// - v2: share_acquire_mode and is_renew_ack are read; acknowledge type 4 (renew) gets
//   INVALID_REQUEST (not served).
// - Long polling as Fetch: an answer without records waits for an append until max_wait_ms
//   (at most --max-fetch-wait-ms).
// - --brokers N: a partition this broker does not lead answers NOT_LEADER_OR_FOLLOWER.
#include <optional>

#include "broker/handlers/handlers.h"
#include "broker/handlers/share_read_authorization.h"
#include "broker/handlers/topic_read_gate.h"
#include "protocol/messages/share_fetch.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_share_fetch(RequestContext& ctx) {
  const auto request = protocol::ShareFetchRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  // Kafka: READ on the group, then READ on each topic (share_read_authorization.h).
  std::optional<TopicReadGate> gate;
  if (refuse_share_request_without_group_read<protocol::ShareFetchResponse>(ctx, request->group_id,
                                                                            gate)) {
    co_return Reply::kSend;
  }
  const auto response = co_await ctx.broker.share_fetches().fetch(
      *request, ctx.version(), ctx.node_id, gate ? &*gate : nullptr);
  if (!response) co_return ctx.close_because("connection closing during a long-polling fetch");
  ctx.count_error(response->error_code);
  for (const auto& topic : response->responses) {
    for (const auto& partition : topic.partitions) {
      ctx.count_error(partition.error_code);
      ctx.count_error(partition.acknowledge_error_code);
    }
  }
  response->encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
