// SPDX-License-Identifier: Apache-2.0
//
// The error a request for one group or one transactional id gets when the client may not
// perform the operation on it (Kafka's KafkaApis checks these before the coordinator sees the
// request): GROUP_AUTHORIZATION_FAILED, TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
// CLUSTER_AUTHORIZATION_FAILED; NONE when allowed (always, with the authorizer off). Also the
// config resources' rule, and Kafka's default message for each of these errors.
// Not thread-safe: runs on the broker's network thread.
#pragma once

#include <cstdint>
#include <string_view>

#include "broker/handlers/request_context.h"
#include "protocol/error_code.h"

namespace kgroups::broker::handlers {

inline protocol::ErrorCode group_authorization_error(const RequestContext& ctx,
                                                     AclOperation operation,
                                                     std::string_view group_id) {
  return ctx.allowed(operation, AclResourceType::kGroup, group_id)
             ? protocol::ErrorCode::kNone
             : protocol::ErrorCode::kGroupAuthorizationFailed;
}

inline protocol::ErrorCode transactional_id_authorization_error(const RequestContext& ctx,
                                                                AclOperation operation,
                                                                std::string_view transactional_id) {
  return ctx.allowed(operation, AclResourceType::kTransactionalId, transactional_id)
             ? protocol::ErrorCode::kNone
             : protocol::ErrorCode::kTransactionalIdAuthorizationFailed;
}

inline protocol::ErrorCode cluster_authorization_error(const RequestContext& ctx,
                                                       AclOperation operation) {
  return ctx.allowed_on_cluster(operation) ? protocol::ErrorCode::kNone
                                           : protocol::ErrorCode::kClusterAuthorizationFailed;
}

// Kafka's authorization of a config resource (DescribeConfigs: DESCRIBE_CONFIGS, AlterConfigs
// and IncrementalAlterConfigs: ALTER_CONFIGS): a broker (4), broker logger (8) or client
// metrics (16) resource needs the operation on the cluster (else CLUSTER_AUTHORIZATION_FAILED),
// a topic (2) on the topic (TOPIC_AUTHORIZATION_FAILED), a group (32) on the group
// (GROUP_AUTHORIZATION_FAILED). Other types: NONE (the handler refuses them itself).
protocol::ErrorCode config_authorization_error(const RequestContext& ctx, AclOperation operation,
                                               std::int8_t resource_type, std::string_view name);

// Kafka's message for an authorization error (Errors' default message), "" for others.
std::string_view authorization_message(protocol::ErrorCode error);

}  // namespace kgroups::broker::handlers
