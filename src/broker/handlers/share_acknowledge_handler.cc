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
#include <string_view>

#include "broker/handlers/authorization_error.h"
#include "broker/handlers/handlers.h"
#include "broker/handlers/topic_read_gate.h"
#include "protocol/messages/share_acknowledge.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_share_acknowledge(RequestContext& ctx) {
  const auto request = protocol::ShareAcknowledgeRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  // Kafka: READ on the group (else GROUP_AUTHORIZATION_FAILED for the request, nothing else),
  // then READ on each topic (TOPIC_AUTHORIZATION_FAILED for its partitions).
  std::optional<TopicReadGate> gate;
  if (ctx.authorizing()) {
    const std::string_view group_id = request->group_id.value_or(std::string_view{});
    if (const protocol::ErrorCode denied =
            group_authorization_error(ctx, AclOperation::kRead, group_id);
        denied != protocol::ErrorCode::kNone) {
      protocol::ShareAcknowledgeResponse refused;
      refused.error_code = denied;
      ctx.count_error(denied);
      refused.encode(ctx.response, ctx.version());
      co_return Reply::kSend;
    }
    gate.emplace(ctx);
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
