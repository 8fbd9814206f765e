// SPDX-License-Identifier: Apache-2.0
//
// ApiVersions (key 18): v0-4.
// - The list of served APIs with their version ranges, straight from the API table.
// - v1+: throttle_time_ms (always 0). v3+ (flexible): the client's software name and version,
//   logged at INFO; no features are advertised. The response header is
//   v0 in every version (connection.cc).
// - A version above the range gets UNSUPPORTED_VERSION in the v0 layout with ApiVersions' own
//   range, as Kafka answers it, and the client retries with a version it finds there. The
//   request body is not read for such versions.
#include "broker/handlers/api_table.h"
#include "broker/handlers/handlers.h"
#include "broker/runtime/logger.h"
#include "protocol/messages/api_versions.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_api_versions(RequestContext& ctx) {
  const ApiEntry* self = find_api(protocol::ApiKey::kApiVersions);
  if (ctx.version() < self->min_version || ctx.version() > self->max_version) {
    protocol::ApiVersionsResponse refusal;
    refusal.error_code = protocol::ErrorCode::kUnsupportedVersion;
    refusal.api_keys = {{.api_key = static_cast<std::int16_t>(protocol::ApiKey::kApiVersions),
                         .min_version = self->min_version,
                         .max_version = self->max_version}};
    refusal.encode(ctx.response, 0);
    co_return Reply::kSend;
  }
  const auto request = protocol::ApiVersionsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  if (ctx.version() >= 3) {
    log_line(LogLevel::kInfo, std::string(ctx.peer) + " client software " +
                                  quote(request->client_software_name) + " version " +
                                  quote(request->client_software_version));
  }

  protocol::ApiVersionsResponse response;
  for (const ApiEntry& api : api_table()) {
    response.api_keys.push_back({.api_key = static_cast<std::int16_t>(api.key),
                                 .min_version = api.min_version,
                                 .max_version = api.max_version});
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
