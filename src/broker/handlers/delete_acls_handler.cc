// SPDX-License-Identifier: Apache-2.0
//
// DeleteAcls (key 31): v0-3. An admin client deletes the ACLs its filters select (as
// DescribeAcls' filter selects them); one result per filter, in order, listing the ACLs it
// deleted. Each filter sees the ACLs as they were before the request, so an ACL two filters
// select is listed by both, as in Kafka.
// - The client needs ALTER on the cluster, else every filter gets
//   CLUSTER_AUTHORIZATION_FAILED and nothing changes; with the authorizer off every filter
//   gets SECURITY_DISABLED ("No Authorizer is configured."), as Kafka.
// - A filter with an UNKNOWN field: INVALID_REQUEST with Kafka's message.
// - Bounds Kafka does not have: the results list at most --max-acls ACLs in all (a filter
//   that would pass it deletes nothing and gets POLICY_VIOLATION), and a request's filters
//   past kMaxDeleteAclsFilters get INVALID_REQUEST, so one request's work stays bounded.
// - v0: no pattern type filter: LITERAL, so only LITERAL ACLs are deleted and listed, as a
//   v0 response must. v1: the pattern type filter and each ACL's pattern type. v2: flexible.
//   v3: the USER resource type.
#include <string>
#include <vector>

#include "broker/handlers/acl_request_fields.h"
#include "broker/handlers/handlers.h"
#include "protocol/messages/delete_acls.h"

namespace kgroups::broker::handlers {
namespace {

using protocol::DeleteAclsRequest;
using protocol::DeleteAclsResponse;
using protocol::ErrorCode;

// Each filter scans every ACL; this many filters per request, at most.
constexpr std::size_t kMaxDeleteAclsFilters = 1'000;

DeleteAclsResponse::DeleteAclsMatchingAcl matching_acl(const AclBinding& binding) {
  return {.error_code = ErrorCode::kNone,
          .error_message = std::nullopt,
          .resource_type = acl_code(binding.resource_type),
          .resource_name = binding.resource_name,
          .pattern_type = acl_code(binding.pattern_type),
          .principal = binding.principal,
          .host = binding.host,
          .operation = acl_code(binding.operation),
          .permission_type = acl_code(binding.permission)};
}

DeleteAclsResponse::DeleteAclsFilterResult result_of(const AclDeletion& deletion) {
  DeleteAclsResponse::DeleteAclsFilterResult result;
  if (deletion.refusal) {
    result.error_code =
        deletion.too_many_matches ? ErrorCode::kPolicyViolation : ErrorCode::kInvalidRequest;
    result.error_message = *deletion.refusal;
    if (deletion.too_many_matches) {
      *result.error_message += " (--max-acls); delete them with fewer or narrower filters";
    }
    return result;
  }
  result.matching_acls.reserve(deletion.deleted.size());
  for (const AclBinding& binding : deletion.deleted) {
    result.matching_acls.push_back(matching_acl(binding));
  }
  return result;
}

DeleteAclsResponse::DeleteAclsFilterResult too_many_filters() {
  return {.error_code = ErrorCode::kInvalidRequest,
          .error_message = "DeleteAcls takes at most " + std::to_string(kMaxDeleteAclsFilters) +
                           " filters per request; send the others in another request",
          .matching_acls = {}};
}

}  // namespace

asio::awaitable<Reply> handle_delete_acls(RequestContext& ctx) {
  const auto request = DeleteAclsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  DeleteAclsResponse response;
  response.filter_results.reserve(request->filters.size());
  if (const auto refusal =
          acl_api_refusal(ctx, AclOperation::kAlter, "DeleteAcls", kNoAuthorizer)) {
    response.filter_results.assign(request->filters.size(), {.error_code = refusal->error_code,
                                                             .error_message = refusal->message,
                                                             .matching_acls = {}});
  } else {
    AclStore& acls = ctx.broker.access().acls();
    std::vector<AclBindingFilter> filters;
    for (std::size_t i = 0; i < request->filters.size() && i < kMaxDeleteAclsFilters; ++i) {
      filters.push_back(acl_filter_of(request->filters[i]));
    }
    for (const AclDeletion& deletion : acls.remove_matching(filters, acls.max_acls())) {
      response.filter_results.push_back(result_of(deletion));
    }
    while (response.filter_results.size() < request->filters.size()) {
      response.filter_results.push_back(too_many_filters());
    }
  }
  for (const auto& result : response.filter_results) ctx.count_error(result.error_code);
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
