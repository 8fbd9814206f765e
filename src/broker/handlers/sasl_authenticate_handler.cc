// SPDX-License-Identifier: Apache-2.0
//
// SaslAuthenticate (key 36): v0-2, flexible from v2. One step of the exchange a SaslHandshake
// v1 began (ConnectionAuth, SaslSession):
// - a step that continues or completes: NONE with the server's bytes; on completion v1+ gives
//   session_lifetime_ms (KIP-368: --connections-max-reauth-ms, or an OAUTHBEARER token's
//   expiry, whichever comes first; 0 = no limit);
// - a failure: SASL_AUTHENTICATION_FAILED with Kafka's message (e.g. "Authentication failed:
//   Invalid username or password"), sent after the failed-authentication back-off
//   (--failed-authentication-delay-ms, growing for an address that keeps failing), then the
//   connection closes. The log line says why; the client's message does not tell which of user
//   and password was wrong.
// - without a handshake, or after authentication completed: ILLEGAL_SASL_STATE (KafkaApis).
#include <asio/redirect_error.hpp>
#include <asio/steady_timer.hpp>
#include <asio/this_coro.hpp>
#include <asio/use_awaitable.hpp>
#include <chrono>

#include "broker/handlers/handlers.h"
#include "broker/runtime/logger.h"
#include "broker/runtime/periodic_task.h"
#include "protocol/messages/sasl_authenticate.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_sasl_authenticate(RequestContext& ctx) {
  const auto request = protocol::SaslAuthenticateRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  protocol::SaslAuthenticateResponse response;
  ConnectionAuth* auth = ctx.auth;
  const bool exchanging =
      auth != nullptr &&
      (auth->stage() == ConnectionAuth::Stage::kAwaitingAuthenticate || auth->reauthenticating());
  if (!exchanging) {
    response.error_code = protocol::ErrorCode::kIllegalSaslState;
    response.error_message = auth != nullptr && auth->authenticated()
                                 ? "SaslAuthenticate request received after successful "
                                   "authentication"
                                 : "SaslAuthenticate request received before a SaslHandshake "
                                   "choosing a mechanism";
    ctx.count_error(response.error_code);
    response.encode(ctx.response, ctx.version());
    co_return Reply::kSend;
  }
  const std::string_view auth_bytes(reinterpret_cast<const char*>(request->auth_bytes.data()),
                                    request->auth_bytes.size());
  const SaslReply reply = auth->authenticate(auth_bytes, wall_clock_ms());
  if (reply.outcome != SaslReply::Outcome::kFailed) {
    response.auth_bytes.assign(reply.auth_bytes.begin(), reply.auth_bytes.end());
    response.session_lifetime_ms = reply.session_lifetime_ms;
    if (reply.outcome == SaslReply::Outcome::kAuthenticated) {
      log_info(std::string(ctx.peer) + " authenticated as " + quote(reply.principal) + " with " +
               std::string(auth->mechanism()));
    }
    response.encode(ctx.response, ctx.version());
    co_return Reply::kSend;
  }
  const std::chrono::milliseconds delay =
      ctx.broker.access().failure_backoff().failed(auth->host(), AuthFailureBackoff::Clock::now());
  log_info(std::string(ctx.peer) + " failed " + std::string(auth->mechanism()) +
           " authentication: " + reply.log_reason + "; closing the connection in " +
           std::to_string(delay.count()) + " ms");
  response.error_code = protocol::ErrorCode::kSaslAuthenticationFailed;
  response.error_message = reply.error_message;
  ctx.count_error(response.error_code);
  response.encode(ctx.response, ctx.version());
  asio::steady_timer backoff(co_await asio::this_coro::executor, delay);
  std::error_code ignored;  // operation_aborted: the connection is closing anyway
  co_await backoff.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
  co_return Reply::kSendAndClose;
}

}  // namespace kgroups::broker::handlers
