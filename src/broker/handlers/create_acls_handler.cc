// SPDX-License-Identifier: Apache-2.0
//
// CreateAcls (key 30): v0-3. An admin client creates ACLs; one result per creation, in order.
// An ACL already there is accepted and kept once, as in Kafka.
// - The client needs ALTER on the cluster, else every creation gets
//   CLUSTER_AUTHORIZATION_FAILED and nothing changes; with the authorizer off every creation
//   gets SECURITY_DISABLED ("No Authorizer is configured."), as Kafka.
// - A creation Kafka refuses (a CLUSTER resource not named kafka-cluster, an empty name, a
//   filter-only or UNKNOWN type, operation or permission, a principal not "Type:name"):
//   INVALID_REQUEST with Kafka's message.
// - Bounds Kafka does not have: past --max-acls, or with no room left in the groups' share of
//   --max-memory (which the ACLs share), POLICY_VIOLATION with a message naming the flag.
// - v0: no pattern type: LITERAL. v1: the pattern type. v2: flexible. v3: the USER resource
//   type.
#include <string>

#include "broker/handlers/acl_request_fields.h"
#include "broker/handlers/handlers.h"
#include "protocol/messages/create_acls.h"

namespace kgroups::broker::handlers {
namespace {

using protocol::CreateAclsRequest;
using protocol::CreateAclsResponse;
using protocol::ErrorCode;

AclBinding binding_of(const CreateAclsRequest::AclCreation& creation) {
  return AclBinding{.resource_type = acl_resource_type_from_code(creation.resource_type),
                    .resource_name = std::string(creation.resource_name),
                    .pattern_type = acl_pattern_type_from_code(creation.resource_pattern_type),
                    .principal = std::string(creation.principal),
                    .host = std::string(creation.host),
                    .operation = acl_operation_from_code(creation.operation),
                    .permission = acl_permission_type_from_code(creation.permission_type)};
}

CreateAclsResponse::AclCreationResult result_of(const std::optional<AclCreateRefusal>& refusal) {
  if (!refusal) return {};
  switch (refusal->reason) {
    case AclCreateRefusal::Reason::kInvalidBinding:
      return {.error_code = ErrorCode::kInvalidRequest, .error_message = refusal->message};
    case AclCreateRefusal::Reason::kTooManyAcls:
      return {.error_code = ErrorCode::kPolicyViolation,
              .error_message = refusal->message + " (--max-acls); delete ACLs or raise --max-acls"};
    case AclCreateRefusal::Reason::kOutOfMemory:
      return {.error_code = ErrorCode::kPolicyViolation,
              .error_message = refusal->message +
                               " (the groups' share of --max-memory, which ACLs count in); "
                               "delete ACLs or groups, or raise --max-memory"};
  }
  return {.error_code = ErrorCode::kUnknownServerError, .error_message = refusal->message};
}

}  // namespace

asio::awaitable<Reply> handle_create_acls(RequestContext& ctx) {
  const auto request = CreateAclsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  CreateAclsResponse response;
  response.results.reserve(request->creations.size());
  if (const auto refusal =
          acl_api_refusal(ctx, AclOperation::kAlter, "CreateAcls", kNoAuthorizer)) {
    response.results.assign(request->creations.size(),
                            {.error_code = refusal->error_code, .error_message = refusal->message});
  } else {
    AclStore& acls = ctx.broker.access().acls();
    for (const CreateAclsRequest::AclCreation& creation : request->creations) {
      response.results.push_back(result_of(acls.create(binding_of(creation))));
    }
  }
  for (const auto& result : response.results) ctx.count_error(result.error_code);
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
