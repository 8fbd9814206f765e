// SPDX-License-Identifier: Apache-2.0
//
// ShareAcknowledge (key 79, KIP-932): v1-2, flexible.
// - Acknowledges records on the member's share session without fetching: the epoch must be
//   the session's next one (0 gets INVALID_SHARE_SESSION_EPOCH: ShareFetch opens sessions);
//   -1 closes the session after the acknowledgements and releases the member's acquired
//   records. Per partition: INVALID_RECORD_STATE when a record is not held by the member
//   (nothing changes on that partition), INVALID_REQUEST for a malformed batch or type 4.
// - v2: acquisition_lock_timeout_ms in the answer.
#include <optional>

#include "broker/handlers/handlers.h"
#include "broker/handlers/share_read_authorization.h"
#include "broker/handlers/topic_read_gate.h"
#include "protocol/messages/share_acknowledge.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_share_acknowledge(RequestContext& ctx) {
  const auto request = protocol::ShareAcknowledgeRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  // Kafka: READ on the group, then READ on each topic (share_read_authorization.h).
  std::optional<TopicReadGate> gate;
  if (refuse_share_request_without_group_read<protocol::ShareAcknowledgeResponse>(
          ctx, request->group_id, gate)) {
    co_return Reply::kSend;
  }
  const auto response = ctx.broker.share_fetches().acknowledge(*request, ctx.version(), ctx.node_id,
                                                               gate ? &*gate : nullptr);
  ctx.count_error(response.error_code);
  for (const auto& topic : response.responses) {
    for (const auto& partition : topic.partitions) ctx.count_error(partition.error_code);
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
