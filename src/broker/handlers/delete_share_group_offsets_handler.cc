// SPDX-License-Identifier: Apache-2.0
//
// DeleteShareGroupOffsets (key 92): v0, flexible. Forgets the group's state of the named
// topics (the next assignment starts them per share.auto.offset.reset); NON_EMPTY_GROUP
// with members, GROUP_ID_NOT_FOUND for an unknown group.
// Answered at the group's coordinator only (NOT_COORDINATOR elsewhere, --brokers).
#include <string>
#include <utility>

#include "broker/handlers/authorization_error.h"
#include "broker/handlers/coordinator_check.h"
#include "broker/handlers/group_error_code.h"
#include "broker/handlers/handlers.h"
#include "protocol/messages/delete_share_group_offsets.h"

namespace kgroups::broker::handlers {

using protocol::ErrorCode;

asio::awaitable<Reply> handle_delete_share_group_offsets(RequestContext& ctx) {
  const auto request = protocol::DeleteShareGroupOffsetsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  protocol::DeleteShareGroupOffsetsResponse response;
  // Kafka: DELETE on the group, then READ on each topic (else TOPIC_AUTHORIZATION_FAILED for it,
  // nothing deleted there).
  response.error_code = group_authorization_error(ctx, AclOperation::kDelete, request->group_id);
  if (response.error_code != ErrorCode::kNone) {
    response.error_message = std::string(authorization_message(response.error_code));
  } else {
    response.error_code =
        coordinator_refusal(ctx, protocol::ApiKey::kDeleteShareGroupOffsets, request->group_id);
  }
  CoordinatorService& groups = ctx.broker.groups();
  if (response.error_code == ErrorCode::kNone) {
    groups.begin_share_call();
    if (!groups.share().has_group(request->group_id)) {
      response.error_code = ErrorCode::kGroupIdNotFound;
      response.error_message = "Group " + std::string(request->group_id) + " is not a share group.";
    } else if (!groups.describe_share_group(request->group_id).members.empty()) {
      response.error_code = ErrorCode::kNonEmptyGroup;
      response.error_message =
          "the share group has members: stop its consumers before deleting its offsets";
    } else {
      for (const auto& asked : request->topics) {
        auto& out = response.responses.emplace_back();
        out.topic_name = std::string(asked.topic_name);
        const StoredTopic* topic = ctx.broker.cluster().find_topic(asked.topic_name);
        if (!ctx.allowed(AclOperation::kRead, AclResourceType::kTopic, asked.topic_name)) {
          out.error_code = ErrorCode::kTopicAuthorizationFailed;
          out.error_message = std::string(authorization_message(out.error_code));
          continue;
        }
        if (topic == nullptr) {
          out.error_code = ErrorCode::kUnknownTopicOrPartition;
          continue;
        }
        out.topic_id = topic->id;
        out.error_code =
            to_error_code(groups.share().delete_topic_state(request->group_id, topic->id));
      }
    }
    groups.finish_call();
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
