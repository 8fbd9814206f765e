// SPDX-License-Identifier: Apache-2.0
//
// Kafka's authorization of ShareFetch and ShareAcknowledge: READ on the share group, else the
// whole request is answered GROUP_AUTHORIZATION_FAILED and nothing else happens; then READ on
// each topic, asked through a TopicReadGate (TOPIC_AUTHORIZATION_FAILED for its partitions).
// With the authorizer off nothing is checked and no gate is made.
// Not thread-safe: a handler's own request, on the broker's network thread.
#pragma once

#include <optional>
#include <string_view>

#include "broker/handlers/authorization_error.h"
#include "broker/handlers/request_context.h"
#include "broker/handlers/topic_read_gate.h"

namespace kgroups::broker::handlers {

// True when the request was refused: its `Response` with the group error is encoded into
// ctx.response. Else `gate` holds the topic gate when the authorizer is on.
template <class Response>
bool refuse_share_request_without_group_read(RequestContext& ctx,
                                             std::optional<std::string_view> group_id,
                                             std::optional<TopicReadGate>& gate) {
  if (!ctx.authorizing()) return false;
  const protocol::ErrorCode denied =
      group_authorization_error(ctx, AclOperation::kRead, group_id.value_or(std::string_view{}));
  if (denied != protocol::ErrorCode::kNone) {
    Response refused;
    refused.error_code = denied;
    ctx.count_error(denied);
    refused.encode(ctx.response, ctx.version());
    return true;
  }
  gate.emplace(ctx);
  return false;
}

}  // namespace kgroups::broker::handlers
