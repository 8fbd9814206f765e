// SPDX-License-Identifier: Apache-2.0
#include "broker/handlers/acl_request_fields.h"

#include "broker/security/connection_auth.h"

namespace kgroups::broker::handlers {

std::optional<AclApiRefusal> acl_api_refusal(const RequestContext& ctx, AclOperation operation,
                                             std::string_view api, std::string_view no_authorizer) {
  if (!ctx.allowed_on_cluster(operation)) {
    const std::string_view principal =
        ctx.auth != nullptr ? std::string_view(ctx.auth->principal()) : kAnonymousPrincipal;
    return AclApiRefusal{protocol::ErrorCode::kClusterAuthorizationFailed,
                         std::string(principal) + " may not send " + std::string(api) +
                             ": it needs " + std::string(acl_name(operation)) +
                             " on the CLUSTER resource " + std::string(kClusterResourceName) +
                             " (an ACL granting it, or --super-users)"};
  }
  if (!ctx.broker.access().authorizer_enabled()) {
    return AclApiRefusal{protocol::ErrorCode::kSecurityDisabled, std::string(no_authorizer)};
  }
  return std::nullopt;
}

}  // namespace kgroups::broker::handlers
