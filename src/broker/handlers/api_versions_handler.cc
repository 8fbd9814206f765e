// SPDX-License-Identifier: Apache-2.0
//
// ApiVersions (key 18): v0-2.
// - v0: the list of served APIs with their version ranges, straight from the API table.
// - v1-2: adds throttle_time_ms (always 0).
// - v3+ (flexible, KIP-482) is not served: it gets UNSUPPORTED_VERSION in the v0 layout with
//   ApiVersions' own range, as Kafka answers it; librdkafka then retries with v0. The request
//   body is not read for such versions.
#include "broker/api_table.h"
#include "broker/handlers/handlers.h"
#include "protocol/messages/api_versions.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_api_versions(RequestContext& ctx) {
  const ApiEntry* self = find_api(protocol::ApiKey::kApiVersions);
  if (ctx.version() < self->min_version || ctx.version() > self->max_version) {
    protocol::ApiVersionsResponse::encode_unsupported_version(ctx.response, self->min_version,
                                                              self->max_version);
    co_return Reply::kSend;
  }
  const auto request = protocol::ApiVersionsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");

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
