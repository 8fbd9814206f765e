// SPDX-License-Identifier: Apache-2.0
//
// What the three ACL APIs (DescribeAcls, CreateAcls, DeleteAcls) share: their wire fields read
// as an AclBindingFilter or AclBinding (DescribeAcls' request and each DeleteAcls filter carry
// the same filter fields; a v0 request has no pattern type, which the codec reads as
// LITERAL), and the two answers each gives before it looks at the ACLs: Kafka's
// SECURITY_DISABLED with the authorizer off, CLUSTER_AUTHORIZATION_FAILED when the client may
// not perform the API's operation on the cluster.
// Thread-safe: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "broker/authorizer/acl_binding.h"
#include "broker/handlers/request_context.h"
#include "protocol/error_code.h"

namespace kgroups::broker::handlers {

// Kafka's messages with SECURITY_DISABLED: DescribeAcls' and the other two's.
inline constexpr std::string_view kNoAuthorizerOnTheBroker =
    "No Authorizer is configured on the broker";
inline constexpr std::string_view kNoAuthorizer = "No Authorizer is configured.";

// Why an ACL API is not served before its ACLs are read: with the authorizer off,
// SECURITY_DISABLED; when the client may not perform `operation` on the cluster,
// CLUSTER_AUTHORIZATION_FAILED with a message naming the principal and what it needs.
struct AclApiRefusal {
  protocol::ErrorCode error_code;
  std::string message;
};
// `api` names the API in the message (e.g. "CreateAcls"); `no_authorizer` is its
// SECURITY_DISABLED message.
std::optional<AclApiRefusal> acl_api_refusal(const RequestContext& ctx, AclOperation operation,
                                             std::string_view api, std::string_view no_authorizer);

// The filter that `fields` (a DescribeAclsRequest or a DeleteAclsFilter) state; a null name,
// principal or host matches any.
template <class FilterFields>
AclBindingFilter acl_filter_of(const FilterFields& fields) {
  AclBindingFilter filter;
  filter.resource_type = acl_resource_type_from_code(fields.resource_type_filter);
  if (fields.resource_name_filter) filter.resource_name = std::string(*fields.resource_name_filter);
  filter.pattern_type = acl_pattern_type_from_code(fields.pattern_type_filter);
  if (fields.principal_filter) filter.principal = std::string(*fields.principal_filter);
  if (fields.host_filter) filter.host = std::string(*fields.host_filter);
  filter.operation = acl_operation_from_code(fields.operation);
  filter.permission = acl_permission_type_from_code(fields.permission_type);
  return filter;
}

// The binding's codes as the wire carries them.
template <class Enum>
std::int8_t acl_code(Enum value) {
  return static_cast<std::int8_t>(value);
}

}  // namespace kgroups::broker::handlers
