// SPDX-License-Identifier: Apache-2.0
//
// AlterConfigs (key 33): v0-2.
// - v0: replaces each resource's whole set of configs: a topic keeps exactly the configs
//   named (what is left out goes back to its default); validate_only checks without
//   changing anything. v1: same. v2: flexible.
// - All or nothing per resource: a topic's changes apply together (at once: see
//   Cluster::set_topic_config) or not at all.
// - Errors per resource: UNKNOWN_TOPIC_OR_PARTITION, INVALID_TOPIC_EXCEPTION, INVALID_CONFIG
//   (a name that is not a topic config, an invalid value, contradicting values),
//   INVALID_REQUEST (a null value, a config named twice, a resource named twice in one
//   request, a resource type other than topic and broker, another broker's id; a group
//   resource, type 32, whose configs only IncrementalAlterConfigs changes).
// - Broker resources (type 4; a broker's id, or "" for the cluster-wide default): the
//   broker configs that set topic defaults (log.retention.ms, message.max.bytes,
//   log.cleanup.policy, ...: alter_broker_config.h) replace that resource's dynamic configs
//   and apply at once to topics that do not set them; any other broker config gets
//   INVALID_REQUEST "Cannot update these configs dynamically: [...]", as Kafka's read-only
//   broker configs.
#include "broker/handlers/alter_config_resource.h"
#include "broker/handlers/authorization_error.h"
#include "broker/handlers/handlers.h"
#include "protocol/messages/alter_configs.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_alter_configs(RequestContext& ctx) {
  const auto request = protocol::AlterConfigsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");

  const auto response = alter_resources<protocol::AlterConfigsResponse>(
      ctx.broker.cluster(), ctx.node_id, *request, AlterMode::kReplace,
      [](const auto& config) {
        return ConfigChange{config.name, 0, config.value};
      },
      [](std::string_view, std::span<const ConfigChange>, bool) {
        return AlterOutcome{protocol::ErrorCode::kInvalidRequest,
                            "AlterConfigs does not change group configs: use "
                            "IncrementalAlterConfigs."};
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
