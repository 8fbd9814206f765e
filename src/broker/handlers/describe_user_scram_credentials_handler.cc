// SPDX-License-Identifier: Apache-2.0
//
// DescribeUserScramCredentials (key 50): v0, flexible. Admin clients list users' SCRAM
// credentials: per user each mechanism with its iteration count, never a salt or a key.
// As Kafka's KafkaApis and ScramImage.describe:
// - The client needs DESCRIBE on the CLUSTER; else CLUSTER_AUTHORIZATION_FAILED for the whole
//   request and no results.
// - Null or empty users: every user of the broker's CredentialStore, in name order.
// - A named user without credentials: RESOURCE_NOT_FOUND "Attempt to describe a user credential
//   that does not exist: NAME"; a name given twice or more: one DUPLICATE_RESOURCE result
//   "Cannot describe SCRAM credentials for the same user twice in a single request: NAME".
//   Results follow the order of the names' first appearance.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "broker/handlers/handlers.h"
#include "broker/handlers/scram_mechanism_code.h"
#include "protocol/messages/describe_user_scram_credentials.h"

namespace kgroups::broker::handlers {
namespace {

using protocol::DescribeUserScramCredentialsResponse;
using protocol::ErrorCode;
using Result = DescribeUserScramCredentialsResponse::DescribeUserScramCredentialsResult;

Result describe_user(const CredentialStore& store, std::string_view user) {
  Result result;
  result.user = std::string(user);
  for (const ScramMechanism mechanism : {ScramMechanism::kSha256, ScramMechanism::kSha512}) {
    if (const ScramCredential* credential = store.find(user, mechanism)) {
      result.credential_infos.push_back(
          {.mechanism = scram_mechanism_code(mechanism), .iterations = credential->iterations});
    }
  }
  if (result.credential_infos.empty()) {
    result.error_code = ErrorCode::kResourceNotFound;
    result.error_message =
        "Attempt to describe a user credential that does not exist: " + std::string(user);
  }
  return result;
}

Result duplicate_user(std::string_view user) {
  Result result;
  result.user = std::string(user);
  result.error_code = ErrorCode::kDuplicateResource;
  result.error_message =
      "Cannot describe SCRAM credentials for the same user twice in a single request: " +
      std::string(user);
  return result;
}

// The names asked for, each once, in the order of their first appearance, with whether it
// appeared more than once.
std::vector<std::pair<std::string_view, bool>> distinct_names(
    const std::vector<protocol::DescribeUserScramCredentialsRequest::UserName>& users) {
  std::vector<std::pair<std::string_view, bool>> names;
  std::map<std::string_view, std::size_t> index_of;
  for (const auto& user : users) {
    const auto [it, first] = index_of.emplace(user.name, names.size());
    if (first) {
      names.emplace_back(user.name, false);
    } else {
      names[it->second].second = true;
    }
  }
  return names;
}

}  // namespace

asio::awaitable<Reply> handle_describe_user_scram_credentials(RequestContext& ctx) {
  const auto request =
      protocol::DescribeUserScramCredentialsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  const CredentialStore& store = ctx.broker.access().credentials();
  DescribeUserScramCredentialsResponse response;
  if (!ctx.allowed_on_cluster(AclOperation::kDescribe)) {
    response.error_code = ErrorCode::kClusterAuthorizationFailed;
    response.error_message =
        "Cluster authorization failed: describing SCRAM credentials needs DESCRIBE on the "
        "CLUSTER resource; grant it to this principal with CreateAcls";
    ctx.count_error(response.error_code);
  } else if (!request->users || request->users->empty()) {
    for (const std::string_view user : store.user_names()) {
      response.results.push_back(describe_user(store, user));
    }
  } else {
    for (const auto& [user, repeated] : distinct_names(*request->users)) {
      response.results.push_back(repeated ? duplicate_user(user) : describe_user(store, user));
    }
  }
  for (const Result& result : response.results) ctx.count_error(result.error_code);
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
