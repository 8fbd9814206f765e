// SPDX-License-Identifier: Apache-2.0
#include "broker/security/sasl_session.h"

#include <algorithm>
#include <type_traits>
#include <utility>

namespace kgroups::broker {
namespace {

constexpr std::string_view kPlain = "PLAIN";
constexpr std::string_view kOAuthBearer = "OAUTHBEARER";

}  // namespace

std::optional<SaslSession> SaslSession::start(std::string_view mechanism,
                                              const CredentialStore& store,
                                              const SaslSettings& settings, bool reauthentication,
                                              ScramNonceSource nonce_source) {
  if (mechanism == kPlain) {
    return SaslSession(kPlain, MechanismServer(std::in_place_type<PlainAuthenticator>, store),
                       settings, reauthentication);
  }
  if (mechanism == kOAuthBearer) {
    return SaslSession(kOAuthBearer,
                       MechanismServer(std::in_place_type<OAuthBearerServer>, settings.oauthbearer),
                       settings, reauthentication);
  }
  if (const std::optional<ScramMechanism> scram = scram_mechanism_named(mechanism)) {
    return SaslSession(
        scram_mechanism_name(*scram),
        MechanismServer(std::in_place_type<ScramServer>, *scram, store, std::move(nonce_source)),
        settings, reauthentication);
  }
  return std::nullopt;
}

SaslSession::SaslSession(std::string_view mechanism, MechanismServer server,
                         const SaslSettings& settings, bool reauthentication)
    : mechanism_(mechanism),
      server_(std::move(server)),
      connections_max_reauth_ms_(settings.connections_max_reauth_ms),
      max_receive_bytes_(settings.max_receive_bytes),
      reauthentication_(reauthentication) {}

SaslReply SaslSession::step(std::string_view auth_bytes, std::int64_t now_ms) {
  if (auth_bytes.size() > max_receive_bytes_) {
    return reply_to(SaslStep::failed("auth_bytes of " + std::to_string(auth_bytes.size()) +
                                     " bytes exceed " + std::to_string(max_receive_bytes_)),
                    now_ms);
  }
  SaslStep step = std::visit(
      [&](auto& server) {
        if constexpr (std::is_same_v<std::decay_t<decltype(server)>, OAuthBearerServer>) {
          return server.step(auth_bytes, now_ms);
        } else {
          return server.step(auth_bytes);
        }
      },
      server_);
  return reply_to(std::move(step), now_ms);
}

SaslReply SaslSession::reply_to(SaslStep step, std::int64_t now_ms) const {
  SaslReply reply;
  switch (step.outcome) {
    case SaslStep::Outcome::kChallenge:
      reply.outcome = SaslReply::Outcome::kContinue;
      reply.auth_bytes = std::move(step.bytes);
      break;
    case SaslStep::Outcome::kAuthenticated:
      reply.outcome = SaslReply::Outcome::kAuthenticated;
      reply.auth_bytes = std::move(step.bytes);
      reply.principal = "User:" + step.user;
      reply.session_lifetime_ms = session_lifetime_ms(step.credential_expiry_ms, now_ms);
      break;
    case SaslStep::Outcome::kFailed:
      reply.outcome = SaslReply::Outcome::kFailed;
      reply.error_message =
          step.client_error.empty() ? generic_failure_message() : std::move(step.client_error);
      reply.log_reason = std::move(step.log_reason);
      break;
  }
  return reply;
}

// As Kafka's SaslServerAuthenticator: the least of connections.max.reauth.ms (when set) and
// the credential's remaining life (when it expires). A credential accepted within the clock
// skew after its expiry gets 1 ms, not 0, since 0 would mean "never re-authenticate".
std::int64_t SaslSession::session_lifetime_ms(std::optional<std::int64_t> credential_expiry_ms,
                                              std::int64_t now_ms) const {
  if (!credential_expiry_ms) return connections_max_reauth_ms_;
  const std::int64_t remaining = std::max<std::int64_t>(1, *credential_expiry_ms - now_ms);
  if (connections_max_reauth_ms_ <= 0) return remaining;
  return std::min(connections_max_reauth_ms_, remaining);
}

// Kafka's message for a failure whose details must not reach an unauthenticated client.
std::string SaslSession::generic_failure_message() const {
  return std::string("Authentication failed during ") +
         (reauthentication_ ? "re-authentication" : "authentication") +
         " due to invalid credentials with SASL mechanism " + std::string(mechanism_);
}

}  // namespace kgroups::broker
