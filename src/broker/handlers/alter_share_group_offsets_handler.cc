// SPDX-License-Identifier: Apache-2.0
//
// AlterShareGroupOffsets (key 91): v0, flexible. Sets start offsets (the share-partition
// starts over there, nothing in flight), creating the group when it does not exist; a group
// with members gets NON_EMPTY_GROUP (Kafka's rule: stop the consumers first). An offset
// outside [log start, high watermark] gets INVALID_REQUEST for its partition.
// Answered at the group's coordinator only (NOT_COORDINATOR elsewhere, --brokers).
#include <string>
#include <utility>

#include "broker/handlers/authorization_error.h"
#include "broker/handlers/coordinator_check.h"
#include "broker/handlers/group_error_code.h"
#include "broker/handlers/handlers.h"
#include "protocol/messages/alter_share_group_offsets.h"

namespace kgroups::broker::handlers {

using protocol::ErrorCode;

asio::awaitable<Reply> handle_alter_share_group_offsets(RequestContext& ctx) {
  const auto request = protocol::AlterShareGroupOffsetsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  protocol::AlterShareGroupOffsetsResponse response;
  // Kafka: READ on the group, then READ on each topic (else TOPIC_AUTHORIZATION_FAILED for its
  // partitions, nothing altered there).
  response.error_code = group_authorization_error(ctx, AclOperation::kRead, request->group_id);
  if (response.error_code != ErrorCode::kNone) {
    response.error_message = std::string(authorization_message(response.error_code));
  } else {
    response.error_code =
        coordinator_refusal(ctx, protocol::ApiKey::kAlterShareGroupOffsets, request->group_id);
  }
  CoordinatorService& groups = ctx.broker.groups();
  if (response.error_code == ErrorCode::kNone && (groups.classic().has_group(request->group_id) ||
                                                  groups.consumer().has_group(request->group_id))) {
    response.error_code = ErrorCode::kGroupIdNotFound;
    response.error_message = "Group " + std::string(request->group_id) + " is not a share group.";
  }
  if (response.error_code == ErrorCode::kNone) {
    groups.begin_share_call();
    for (const auto& asked_topic : request->topics) {
      auto& out = response.responses.emplace_back();
      out.topic_name = std::string(asked_topic.topic_name);
      const StoredTopic* topic = ctx.broker.cluster().find_topic(asked_topic.topic_name);
      if (topic != nullptr) out.topic_id = topic->id;
      const bool denied =
          !ctx.allowed(AclOperation::kRead, AclResourceType::kTopic, asked_topic.topic_name);
      for (const auto& asked : asked_topic.partitions) {
        auto& partition_out = out.partitions.emplace_back();
        partition_out.partition_index = asked.partition_index;
        if (denied) {
          partition_out.error_code = ErrorCode::kTopicAuthorizationFailed;
          partition_out.error_message =
              std::string(authorization_message(ErrorCode::kTopicAuthorizationFailed));
          continue;
        }
        if (topic == nullptr || asked.partition_index < 0 ||
            static_cast<std::size_t>(asked.partition_index) >= topic->partitions.size()) {
          partition_out.error_code = ErrorCode::kUnknownTopicOrPartition;
          continue;
        }
        const BatchLog& log = topic->partitions[static_cast<std::size_t>(asked.partition_index)];
        if (asked.start_offset < log.log_start_offset() ||
            asked.start_offset > log.high_watermark()) {
          partition_out.error_code = ErrorCode::kInvalidRequest;
          partition_out.error_message = "the start offset is outside the partition's log";
          continue;
        }
        const GroupError error = groups.share().alter_start_offset(
            request->group_id, topic->id, asked.partition_index, asked.start_offset);
        if (error == GroupError::kNonEmptyGroup) {
          response.error_code = ErrorCode::kNonEmptyGroup;
          response.error_message =
              "the share group has members: stop its consumers before altering its offsets";
          response.responses.clear();
          break;
        }
        partition_out.error_code = to_error_code(error);
      }
      if (response.error_code != ErrorCode::kNone) break;
    }
    groups.finish_call();
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
