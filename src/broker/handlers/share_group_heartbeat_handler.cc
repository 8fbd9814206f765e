// SPDX-License-Identifier: Apache-2.0
//
// ShareGroupHeartbeat (key 76, KIP-932): v1, flexible (v0 was Kafka 4.0's early access,
// which Kafka 4.1 dropped; librdkafka 2.15 sends v1).
// - A member joins with epoch 0, the member id it generated and its subscribed topic names;
//   heartbeats with its epoch (fields sent as null are unchanged); leaves with -1. The broker
//   assigns with Kafka's simple share assignor: a partition may go to several members, and
//   a member gets its whole assignment at once (share groups never revoke), with the group
//   epoch as its own, on its next heartbeat; the assignment is null when unchanged.
// - A group id held by a classic or consumer group gets GROUP_ID_NOT_FOUND ("not a share
//   group"). Other errors: ShareGroupCoordinator::heartbeat().
// - A member that leaves, or whose session times out, releases the records it acquired.
// - Injected errors (POST /v1/faults) answer as for ConsumerGroupHeartbeat.
#include <string>
#include <utility>

#include "broker/handlers/group_error_code.h"
#include "broker/handlers/group_heartbeat_refusal.h"
#include "broker/handlers/group_refusal_log.h"
#include "broker/handlers/handlers.h"
#include "protocol/messages/share_group_heartbeat.h"

namespace kgroups::broker::handlers {
namespace {

using Request = protocol::ShareGroupHeartbeatRequest;
using Response = protocol::ShareGroupHeartbeatResponse;

ShareGroupHeartbeatParams to_params(const Request& request, const RequestContext& ctx) {
  ShareGroupHeartbeatParams params;
  params.group_id = std::string(request.group_id);
  params.member_id = std::string(request.member_id);
  params.member_epoch = request.member_epoch;
  if (request.rack_id) params.rack_id = std::string(*request.rack_id);
  if (request.subscribed_topic_names) {
    auto& names = params.subscribed_topic_names.emplace();
    names.reserve(request.subscribed_topic_names->size());
    for (const std::string_view name : *request.subscribed_topic_names) names.emplace_back(name);
  }
  params.client_id = std::string(ctx.header.client_id.value_or(""));
  params.client_host = client_host(ctx.peer);
  return params;
}

Response to_response(ShareGroupHeartbeatResult result) {
  Response response;
  response.error_code = to_error_code(result.error);
  response.member_epoch = result.member_epoch;
  if (result.error != GroupError::kNone) {
    if (!result.error_message.empty()) response.error_message = std::move(result.error_message);
    return response;
  }
  response.member_id = std::move(result.member_id);
  response.heartbeat_interval_ms = result.heartbeat_interval_ms;
  if (result.assignment) {
    Response::Assignment assignment;
    assignment.topic_partitions.reserve(result.assignment->size());
    for (TopicPartitions& topic : *result.assignment) {
      assignment.topic_partitions.push_back(
          {.topic_id = topic.topic_id, .partitions = std::move(topic.partitions)});
    }
    response.assignment = std::move(assignment);
  }
  return response;
}

}  // namespace

asio::awaitable<Reply> handle_share_group_heartbeat(RequestContext& ctx) {
  const auto request = Request::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  ShareGroupHeartbeatResult result;
  const protocol::ErrorCode injected =
      group_heartbeat_refusal(ctx, protocol::ApiKey::kShareGroupHeartbeat, *request);
  if (injected != protocol::ErrorCode::kNone) {
    result.error = injected_group_error(injected);
    result.member_epoch = request->member_epoch;
  } else {
    result = ctx.broker.groups().share_group_heartbeat(to_params(*request, ctx));
    log_group_refusal(ctx.peer, "ShareGroupHeartbeat", request->group_id, result.error,
                      result.error_message);
  }
  ctx.count_error(to_error_code(result.error));
  to_response(std::move(result)).encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
