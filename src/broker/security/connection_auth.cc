// SPDX-License-Identifier: Apache-2.0
#include "broker/security/connection_auth.h"

#include <algorithm>
#include <utility>

namespace kgroups::broker {

ConnectionAuth::ConnectionAuth(bool sasl, std::string host, std::string tls_principal)
    : sasl_(sasl),
      stage_(sasl ? Stage::kAwaitingHandshake : Stage::kAuthenticated),
      host_(std::move(host)),
      principal_(tls_principal.empty() || sasl ? std::string(kAnonymousPrincipal)
                                               : std::move(tls_principal)) {}

ConnectionAuth::HandshakeOutcome ConnectionAuth::handshake(
    std::string_view mechanism, std::int16_t version,
    std::span<const std::string> enabled_mechanisms, const CredentialStore& credentials,
    const SaslSettings& settings) {
  const bool reauthentication = stage_ == Stage::kAuthenticated;
  if (!sasl_ || session_ || (reauthentication && version < 1)) {
    return HandshakeOutcome::kIllegalState;
  }
  if (stage_ != Stage::kAwaitingHandshake && !reauthentication) {
    return HandshakeOutcome::kIllegalState;
  }
  const bool enabled = std::find(enabled_mechanisms.begin(), enabled_mechanisms.end(), mechanism) !=
                       enabled_mechanisms.end();
  std::optional<SaslSession> session =
      enabled ? SaslSession::start(mechanism, credentials, settings, reauthentication)
              : std::nullopt;
  if (!session) return HandshakeOutcome::kUnsupportedMechanism;
  session_.emplace(std::move(*session));
  mechanism_ = session_->mechanism();
  if (!reauthentication) {
    stage_ = version == 0 ? Stage::kAwaitingRawToken : Stage::kAwaitingAuthenticate;
  }
  return HandshakeOutcome::kAccepted;
}

SaslReply ConnectionAuth::authenticate(std::string_view auth_bytes, std::int64_t now_ms) {
  if (!session_) {
    SaslReply refused;
    refused.error_message = authenticated()
                                ? "SaslAuthenticate request received after successful "
                                  "authentication"
                                : "Unexpected SaslAuthenticate request before SaslHandshake";
    refused.log_reason = refused.error_message;
    return refused;
  }
  SaslReply reply = session_->step(auth_bytes, now_ms);
  if (reply.outcome == SaslReply::Outcome::kContinue) return reply;
  const bool reauthentication = authenticated();
  session_.reset();
  if (reply.outcome == SaslReply::Outcome::kFailed) return reply;
  if (reauthentication && reply.principal != principal_) {
    reply.outcome = SaslReply::Outcome::kFailed;
    reply.error_message = "Cannot change principals during re-authentication from " + principal_ +
                          ": " + reply.principal;
    reply.log_reason = reply.error_message;
    return reply;
  }
  principal_ = reply.principal;
  stage_ = Stage::kAuthenticated;
  session_expiry_ms_ = reply.session_lifetime_ms > 0
                           ? std::optional<std::int64_t>(now_ms + reply.session_lifetime_ms)
                           : std::nullopt;
  return reply;
}

}  // namespace kgroups::broker
