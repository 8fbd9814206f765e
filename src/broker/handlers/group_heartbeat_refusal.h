// SPDX-License-Identifier: Apache-2.0
//
// The error ConsumerGroupHeartbeat (KIP-848) and ShareGroupHeartbeat (KIP-932) answer before
// their group sees the request, in Kafka's order: READ on the group (GROUP_AUTHORIZATION_FAILED),
// DESCRIBE on every subscribed topic named (TOPIC_AUTHORIZATION_FAILED), then the coordinator's
// placement and injected faults (coordinator_refusal()); NONE to go on.
// Not thread-safe: a handler's own request, on the broker's network thread.
#pragma once

#include "broker/handlers/authorization_error.h"
#include "broker/handlers/coordinator_check.h"
#include "broker/handlers/described_group_topics.h"
#include "broker/handlers/request_context.h"
#include "protocol/api_key.h"
#include "protocol/error_code.h"

namespace kgroups::broker::handlers {

template <class Request>
protocol::ErrorCode group_heartbeat_refusal(RequestContext& ctx, protocol::ApiKey api,
                                            const Request& request) {
  if (const protocol::ErrorCode denied =
          group_authorization_error(ctx, AclOperation::kRead, request.group_id);
      denied != protocol::ErrorCode::kNone) {
    return denied;
  }
  if (subscribes_undescribable(ctx, request.subscribed_topic_names)) {
    return protocol::ErrorCode::kTopicAuthorizationFailed;
  }
  return coordinator_refusal(ctx, api, request.group_id);
}

}  // namespace kgroups::broker::handlers
