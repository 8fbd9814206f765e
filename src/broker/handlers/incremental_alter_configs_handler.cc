// SPDX-License-Identifier: Apache-2.0
//
// IncrementalAlterConfigs (key 44): v0-1.
// - v0: changes single configs of each resource, in order: 0 set, 1 delete (back to the
//   default), 2 append and 3 subtract (list configs only, such as cleanup.policy: entries
//   are added when missing, removed when present; an unset config starts from its default);
//   validate_only checks without changing anything. v1: flexible.
// - All or nothing per resource: a topic's changes apply together (at once: see
//   Cluster::set_topic_config) or not at all.
// - Errors per resource: UNKNOWN_TOPIC_OR_PARTITION, INVALID_TOPIC_EXCEPTION, INVALID_CONFIG
//   (a name that is not a topic config, an invalid value or result, append/subtract on a
//   config that is not a list), INVALID_REQUEST (an unknown operation, a null value other
//   than with delete, a config named twice, a resource named twice in one request, a
//   resource type other than topic, broker and group, another broker's id).
// - Broker resources (type 4; a broker's id, or "" for the cluster-wide default): the
//   broker configs that set topic defaults (log.retention.ms, message.max.bytes,
//   log.cleanup.policy, ...: alter_broker_config.h) change as for a topic and apply at once
//   to topics that do not set them; any other broker config gets INVALID_REQUEST "Cannot
//   update these configs dynamically: [...]", as Kafka's read-only broker configs.
// - Group resources (type 32): a share group's share.record.lock.duration.ms,
//   share.auto.offset.reset, share.delivery.count.limit and share.partition.max.record.locks
//   (group_config_resource.h); INVALID_CONFIG for another name or a value out of range.
#include "broker/handlers/alter_config_resource.h"
#include "broker/handlers/authorization_error.h"
#include "broker/handlers/group_config_resource.h"
#include "broker/handlers/handlers.h"
#include "protocol/messages/incremental_alter_configs.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_incremental_alter_configs(RequestContext& ctx) {
  const auto request = protocol::IncrementalAlterConfigsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");

  const auto response = alter_resources<protocol::IncrementalAlterConfigsResponse>(
      ctx.broker.cluster(), ctx.node_id, *request, AlterMode::kIncremental,
      [](const auto& config) {
        return ConfigChange{config.name, config.config_operation, config.value};
      },
      [&ctx](std::string_view group_id, std::span<const ConfigChange> changes, bool validate_only) {
        return alter_group_config(ctx.broker.groups(), group_id, changes, validate_only);
      },
      [&ctx](std::int8_t type, std::string_view name) {
        const protocol::ErrorCode error =
            config_authorization_error(ctx, AclOperation::kAlterConfigs, type, name);
        return AlterOutcome{error, std::string(authorization_message(error))};
      });
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
