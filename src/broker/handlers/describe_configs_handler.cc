// SPDX-License-Identifier: Apache-2.0
//
// DescribeConfigs (key 32): v0-4.
// - v0: each resource's configs (all, or those named in configuration_keys; names that are
//   not configs are left out) with value, read_only, is_default and is_sensitive (never:
//   kgroupsd has no secrets).
// - v1: include_synonyms; each config's source (Kafka's ConfigSource: 1 set on the topic,
//   2 set at run time for this broker, 3 set at run time cluster-wide, 4 a broker flag that
//   differs from Kafka's default, 5 Kafka's default) and, when asked, its synonyms (the
//   topic's value, the broker's dynamic value, the cluster-wide one, the broker's flag,
//   Kafka's default). v2: same.
// - v3: include_documentation; each config's type (Kafka's ConfigType) and, when asked, a
//   one-line documentation. v4: flexible.
// - Resources: topics (type 2): every topic config of topic_config_catalog.h, writable;
//   this broker (type 4, named by its id): its command-line settings under Kafka's broker
//   config names, read-only, and the broker configs that set topic defaults (log.retention.ms,
//   ...), writable, with their dynamic values; "" (the cluster-wide dynamic defaults): the
//   configs set cluster-wide at run time; groups (type 32): a share group's share.* configs
//   (group_config_resource.h), writable, with source 8 (GROUP_CONFIG) when the group set
//   them.
// - Errors per resource: UNKNOWN_TOPIC_OR_PARTITION, INVALID_TOPIC_EXCEPTION (illegal name),
//   INVALID_REQUEST for another broker's id, a classic or consumer group's id, a resource
//   type other than 2, 4 and 32, and for
//   a resource named again in the same request: a repeat is not described twice, so a
//   request cannot make the response grow more than one description per distinct resource.
#include <set>
#include <string>
#include <utility>

#include "broker/config/described_config.h"
#include "broker/handlers/authorization_error.h"
#include "broker/handlers/config_resource.h"
#include "broker/handlers/group_config_resource.h"
#include "broker/handlers/handlers.h"
#include "protocol/messages/describe_configs.h"

namespace kgroups::broker::handlers {
namespace {

using protocol::DescribeConfigsRequest;
using protocol::DescribeConfigsResponse;
using protocol::ErrorCode;

bool wanted(const DescribeConfigsRequest::Resource& resource, std::string_view name) {
  if (!resource.configuration_keys) return true;
  for (const std::string_view key : *resource.configuration_keys) {
    if (key == name) return true;
  }
  return false;
}

void describe(DescribeConfigsResponse::ResourceResult& out,
              const DescribeConfigsRequest::Resource& resource,
              std::vector<DescribedConfig> configs, const DescribeConfigsRequest& request) {
  for (DescribedConfig& described : configs) {
    if (!wanted(resource, described.name)) continue;
    auto& config = out.configs.emplace_back();
    config.name = std::string(described.name);
    config.value = std::move(described.value);
    config.read_only = described.read_only;
    config.is_default = described.source == ConfigSource::kDefault;
    config.config_source = static_cast<std::int8_t>(described.source);
    config.is_sensitive = false;
    config.config_type = static_cast<std::int8_t>(described.type);
    if (request.include_documentation) config.documentation = std::string(described.documentation);
    if (!request.include_synonyms) continue;
    for (ConfigSynonym& synonym : described.synonyms) {
      auto& entry = config.synonyms.emplace_back();
      entry.name = std::string(synonym.name);
      entry.value = std::move(synonym.value);
      entry.source = static_cast<std::int8_t>(synonym.source);
    }
  }
}

}  // namespace

asio::awaitable<Reply> handle_describe_configs(RequestContext& ctx) {
  const auto request = DescribeConfigsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");

  Cluster& cluster = ctx.broker.cluster();
  // The broker asked describes itself (--brokers: node ids 0..N-1).
  BrokerConfig broker_config = ctx.broker.config();
  broker_config.node_id = ctx.node_id;
  std::set<std::pair<std::int8_t, std::string_view>> seen;
  DescribeConfigsResponse response;
  for (const auto& resource : request->resources) {
    auto& out = response.results.emplace_back();
    out.resource_type = resource.resource_type;
    out.resource_name = std::string(resource.resource_name);
    if (!seen.emplace(resource.resource_type, resource.resource_name).second) {
      out.error_code = ErrorCode::kInvalidRequest;
      out.error_message = "Resource named more than once in the request; described once.";
      continue;
    }
    out.error_code = config_authorization_error(ctx, AclOperation::kDescribeConfigs,
                                                resource.resource_type, resource.resource_name);
    if (out.error_code != ErrorCode::kNone) {
      out.error_message = std::string(authorization_message(out.error_code));
      continue;
    }
    if (resource.resource_type == kGroupResource) {
      GroupConfigLookup group = describe_group_configs(ctx.broker.groups(), resource.resource_name);
      if (group.error.error != ErrorCode::kNone) {
        out.error_code = group.error.error;
        out.error_message = std::move(group.error.message);
      } else {
        describe(out, resource, std::move(group.configs), *request);
      }
      continue;
    }
    const ResourceLookup found =
        find_config_resource(cluster, ctx.node_id, resource.resource_type, resource.resource_name);
    if (found.error != ErrorCode::kNone) {
      out.error_code = found.error;
      out.error_message = found.message;
    } else if (found.topic != nullptr) {
      describe(out, resource,
               describe_topic_configs(found.topic->set_configs, cluster.dynamic_broker_config(),
                                      ctx.node_id),
               *request);
    } else if (found.broker_id) {
      describe(out, resource,
               describe_broker_configs(broker_config, cluster.dynamic_broker_config()), *request);
    } else {
      describe(out, resource, describe_default_broker_configs(cluster.dynamic_broker_config()),
               *request);
    }
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
