// SPDX-License-Identifier: Apache-2.0
//
// DescribeAcls (key 29): v0-3. An admin client lists the ACLs one filter selects (ANY matches
// every value of a field, a null name, principal or host any; the pattern type MATCH selects
// every pattern that applies to the filter's name), grouped by resource pattern in the store's
// order.
// - The client needs DESCRIBE on the cluster, else CLUSTER_AUTHORIZATION_FAILED; with the
//   authorizer off SECURITY_DISABLED ("No Authorizer is configured on the broker"), as Kafka.
// - A filter with an UNKNOWN field: INVALID_REQUEST with the store's message (Kafka's broker
//   fails to parse such a request and closes the connection).
// - v0: no pattern type filter: it is LITERAL (Kafka's clients send ANY as LITERAL), so the
//   answer holds only LITERAL patterns, as a v0 response must. v1: the pattern type filter and
//   each resource's pattern type. v2: flexible. v3: the USER resource type.
#include <string>

#include "broker/handlers/acl_request_fields.h"
#include "broker/handlers/handlers.h"
#include "protocol/messages/describe_acls.h"

namespace kgroups::broker::handlers {
namespace {

using protocol::DescribeAclsResponse;

bool same_pattern(const DescribeAclsResponse::DescribeAclsResource& resource,
                  const AclBinding& binding) {
  return resource.resource_type == acl_code(binding.resource_type) &&
         resource.resource_name == binding.resource_name &&
         resource.pattern_type == acl_code(binding.pattern_type);
}

// The bindings, in the store's order (by resource pattern first), one resource per pattern.
void add_resources(DescribeAclsResponse& response, const std::vector<AclBinding>& bindings) {
  for (const AclBinding& binding : bindings) {
    if (response.resources.empty() || !same_pattern(response.resources.back(), binding)) {
      response.resources.push_back({.resource_type = acl_code(binding.resource_type),
                                    .resource_name = binding.resource_name,
                                    .pattern_type = acl_code(binding.pattern_type),
                                    .acls = {}});
    }
    response.resources.back().acls.push_back({.principal = binding.principal,
                                              .host = binding.host,
                                              .operation = acl_code(binding.operation),
                                              .permission_type = acl_code(binding.permission)});
  }
}

}  // namespace

asio::awaitable<Reply> handle_describe_acls(RequestContext& ctx) {
  const auto request = protocol::DescribeAclsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  DescribeAclsResponse response;
  const AclBindingFilter filter = acl_filter_of(*request);
  if (auto refusal =
          acl_api_refusal(ctx, AclOperation::kDescribe, "DescribeAcls", kNoAuthorizerOnTheBroker)) {
    response.error_code = refusal->error_code;
    response.error_message = std::move(refusal->message);
  } else if (auto invalid = acl_filter_refusal(filter)) {
    response.error_code = protocol::ErrorCode::kInvalidRequest;
    response.error_message = std::move(*invalid);
  } else {
    add_resources(response, ctx.broker.access().acls().describe(filter));
  }
  ctx.count_error(response.error_code);
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
