// SPDX-License-Identifier: Apache-2.0
#include "broker/handlers/authorization_error.h"

namespace kgroups::broker::handlers {
namespace {

// Kafka's ConfigResource.Type numbers.
constexpr std::int8_t kTopicConfigResource = 2;
constexpr std::int8_t kBrokerConfigResource = 4;
constexpr std::int8_t kBrokerLoggerConfigResource = 8;
constexpr std::int8_t kClientMetricsConfigResource = 16;
constexpr std::int8_t kGroupConfigResource = 32;

}  // namespace

protocol::ErrorCode config_authorization_error(const RequestContext& ctx, AclOperation operation,
                                               std::int8_t resource_type, std::string_view name) {
  switch (resource_type) {
    case kTopicConfigResource:
      return ctx.allowed(operation, AclResourceType::kTopic, name)
                 ? protocol::ErrorCode::kNone
                 : protocol::ErrorCode::kTopicAuthorizationFailed;
    case kGroupConfigResource:
      return group_authorization_error(ctx, operation, name);
    case kBrokerConfigResource:
    case kBrokerLoggerConfigResource:
    case kClientMetricsConfigResource:
      return cluster_authorization_error(ctx, operation);
    default:
      return protocol::ErrorCode::kNone;
  }
}

std::string_view authorization_message(protocol::ErrorCode error) {
  switch (error) {
    case protocol::ErrorCode::kTopicAuthorizationFailed:
      return "Topic authorization failed.";
    case protocol::ErrorCode::kGroupAuthorizationFailed:
      return "Group authorization failed.";
    case protocol::ErrorCode::kClusterAuthorizationFailed:
      return "Cluster authorization failed.";
    case protocol::ErrorCode::kTransactionalIdAuthorizationFailed:
      return "Transactional Id authorization failed.";
    default:
      return {};
  }
}

}  // namespace kgroups::broker::handlers
