// SPDX-License-Identifier: Apache-2.0
//
// FindCoordinator (key 10): v0.
// - v0: this broker coordinates every group: its node id and advertised address.
// - Not served: v1-2 (key_type: transactions do not exist here).
#include "broker/handlers/handlers.h"
#include "protocol/messages/find_coordinator.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_find_coordinator(RequestContext& ctx) {
  const auto request = protocol::FindCoordinatorRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  protocol::FindCoordinatorResponse response;
  if (request->key_type != 0) {
    response.error_code = protocol::ErrorCode::kCoordinatorNotAvailable;
    response.error_message = "kgroupsd has no transaction coordinator";
  } else {
    const BrokerConfig& config = ctx.broker.config();
    response.node_id = config.node_id;
    response.host = config.advertised_host;
    response.port = config.advertised_port;
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
