// SPDX-License-Identifier: Apache-2.0
//
// ConsumerGroupHeartbeat (key 68, KIP-848): v0-1, flexible in both.
// - A member joins with epoch 0 and its subscription, heartbeats with its epoch and the
//   partitions it owns, and leaves with epoch -1 (-2: a static member that will come back).
//   The broker computes the assignment (server-side assignors "uniform" and "range") and
//   hands each member its part incrementally: a partition moves only after its previous
//   owner reported it released.
// - v0: the broker generates the member id on join. v1: the client sends its own UUID and
//   may send subscribed_topic_regex: a non-empty one gets INVALID_REQUEST (regular
//   expression subscriptions are not served); an empty one means none, as in Kafka
//   (librdkafka 2.12 sends "" with a subscription by names).
// - Fields a member sends as null are unchanged since its last heartbeat; the response's
//   assignment is null when the member's partitions did not change.
// - A group id held by the classic protocol with members gets GROUP_ID_NOT_FOUND; an empty
//   classic group is taken over with its committed offsets (CoordinatorService).
// - Injected errors (POST /v1/faults): an armed ConsumerGroupHeartbeat or coordinator fault
//   answers its error with the member's epoch as sent, and the group is not touched.
#include <string>
#include <utility>

#include "broker/handlers/group_error_code.h"
#include "broker/handlers/group_heartbeat_refusal.h"
#include "broker/handlers/group_refusal_log.h"
#include "broker/handlers/handlers.h"
#include "protocol/messages/consumer_group_heartbeat.h"

namespace kgroups::broker::handlers {
namespace {

using Request = protocol::ConsumerGroupHeartbeatRequest;
using Response = protocol::ConsumerGroupHeartbeatResponse;

std::optional<std::string> copy(std::optional<std::string_view> text) {
  if (!text) return std::nullopt;
  return std::string(*text);
}

ConsumerGroupHeartbeatParams to_params(const Request& request, const RequestContext& ctx) {
  ConsumerGroupHeartbeatParams params;
  params.group_id = std::string(request.group_id);
  params.member_id = std::string(request.member_id);
  params.member_epoch = request.member_epoch;
  params.instance_id = copy(request.instance_id);
  params.rack_id = copy(request.rack_id);
  params.rebalance_timeout_ms = request.rebalance_timeout_ms;
  if (request.subscribed_topic_names) {
    auto& names = params.subscribed_topic_names.emplace();
    names.reserve(request.subscribed_topic_names->size());
    for (const std::string_view name : *request.subscribed_topic_names) names.emplace_back(name);
  }
  params.subscribed_topic_regex = copy(request.subscribed_topic_regex);
  params.server_assignor = copy(request.server_assignor);
  if (request.topic_partitions) {
    auto& owned = params.owned_topic_partitions.emplace();
    owned.reserve(request.topic_partitions->size());
    for (const auto& topic : *request.topic_partitions) {
      owned.push_back({.topic_id = topic.topic_id, .partitions = topic.partitions});
    }
  }
  params.client_id = std::string(ctx.header.client_id.value_or(""));
  params.client_host = client_host(ctx.peer);
  return params;
}

Response to_response(ConsumerGroupHeartbeatResult result) {
  Response response;
  response.error_code = to_error_code(result.error);
  if (result.error != GroupError::kNone) {
    if (!result.error_message.empty()) response.error_message = std::move(result.error_message);
    response.member_epoch = result.member_epoch;
    return response;
  }
  response.member_id = std::move(result.member_id);
  response.member_epoch = result.member_epoch;
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

asio::awaitable<Reply> handle_consumer_group_heartbeat(RequestContext& ctx) {
  const auto request = Request::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  ConsumerGroupHeartbeatResult result;
  const protocol::ErrorCode injected =
      group_heartbeat_refusal(ctx, protocol::ApiKey::kConsumerGroupHeartbeat, *request);
  if (injected != protocol::ErrorCode::kNone) {
    result.error = injected_group_error(injected);
    result.member_epoch = request->member_epoch;
  } else {
    result = ctx.broker.groups().consumer_group_heartbeat(to_params(*request, ctx));
    log_group_refusal(ctx.peer, "ConsumerGroupHeartbeat", request->group_id, result.error,
                      result.error_message);
  }
  ctx.count_error(to_error_code(result.error));
  to_response(std::move(result)).encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
