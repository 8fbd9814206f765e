// SPDX-License-Identifier: Apache-2.0
//
// SaslHandshake (key 17): v0-1. A client on a SASL listener names its mechanism; the answer
// lists the enabled mechanisms (--sasl-enabled-mechanisms) in every case, as Kafka's.
// - An enabled mechanism: NONE; the exchange follows in SaslAuthenticate requests (v1), or in
//   raw tokens (v0, which the connection reads next). On an authenticated connection a v1
//   handshake starts re-authentication (KIP-368).
// - A mechanism not enabled: UNSUPPORTED_SASL_MECHANISM, then the connection closes (Kafka's
//   SaslServerAuthenticator throws UnsupportedSaslMechanismException after answering).
// - On a PLAINTEXT or SSL listener, or in the middle of an exchange: ILLEGAL_SASL_STATE, and
//   the connection stays open (KafkaApis answers a handshake it gets after authentication so).
#include "broker/handlers/handlers.h"
#include "broker/runtime/logger.h"
#include "protocol/messages/sasl_handshake.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_sasl_handshake(RequestContext& ctx) {
  const auto request = protocol::SaslHandshakeRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  AccessControl& access = ctx.broker.access();
  protocol::SaslHandshakeResponse response;
  response.mechanisms = access.enabled_mechanisms();
  using Outcome = ConnectionAuth::HandshakeOutcome;
  const Outcome outcome =
      ctx.auth == nullptr
          ? Outcome::kIllegalState
          : ctx.auth->handshake(request->mechanism, ctx.version(), access.enabled_mechanisms(),
                                access.credentials(), access.sasl_settings());
  Reply reply = Reply::kSend;
  switch (outcome) {
    case Outcome::kAccepted:
      break;
    case Outcome::kUnsupportedMechanism:
      response.error_code = protocol::ErrorCode::kUnsupportedSaslMechanism;
      log_info(std::string(ctx.peer) + " asked for SASL mechanism " + quote(request->mechanism) +
               ", which is not enabled (--sasl-enabled-mechanisms); closing the connection");
      reply = Reply::kSendAndClose;
      break;
    case Outcome::kIllegalState:
      response.error_code = protocol::ErrorCode::kIllegalSaslState;
      break;
  }
  ctx.count_error(response.error_code);
  response.encode(ctx.response, ctx.version());
  co_return reply;
}

}  // namespace kgroups::broker::handlers
