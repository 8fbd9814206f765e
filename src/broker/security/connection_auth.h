// SPDX-License-Identifier: Apache-2.0
//
// ConnectionAuth: who one connection is, and where it stands in SASL authentication, as Kafka's
// SaslServerAuthenticator tracks it. On a PLAINTEXT or SSL listener the connection is
// authenticated from the start, as User:ANONYMOUS or (SSL with a client certificate) as the
// certificate's subject. On a SASL listener it first needs a SaslHandshake naming an enabled
// mechanism, then the mechanism's exchange: in SaslAuthenticate requests (handshake v1), or
// in raw size-prefixed tokens (handshake v0, as kafka-python 2.0 does it). Once authenticated,
// a session may carry an expiry (KIP-368: connections.max.reauth.ms, a token's exp); the
// client re-authenticates with a new SaslHandshake v1 before it, keeping its principal, and
// after it the connection serves nothing but re-authentication. The network layer decides
// what a stage lets through; this class knows nothing of sockets or the wire format.
// Not thread-safe: one per connection, on the broker's network thread.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "broker/security/sasl_session.h"

namespace kgroups::broker {

// Kafka's principal of a connection nobody authenticated (KafkaPrincipal.ANONYMOUS).
inline constexpr std::string_view kAnonymousPrincipal = "User:ANONYMOUS";

class ConnectionAuth {
 public:
  enum class Stage {
    kAwaitingHandshake,     // SASL: nothing but ApiVersions and SaslHandshake yet
    kAwaitingAuthenticate,  // SASL: a handshake v1 chose the mechanism; SaslAuthenticate next
    kAwaitingRawToken,      // SASL: a handshake v0 chose it; raw tokens next
    kAuthenticated,
  };

  // `sasl`: the listener asks for SASL. `host`: the client's address, for ACLs' hosts.
  // `tls_principal`: "User:<subject>" of a verified client certificate, or empty.
  ConnectionAuth(bool sasl, std::string host, std::string tls_principal = {});

  [[nodiscard]] Stage stage() const { return stage_; }
  [[nodiscard]] bool sasl() const { return sasl_; }
  [[nodiscard]] bool authenticated() const { return stage_ == Stage::kAuthenticated; }
  // Whether a SaslHandshake v1 began a re-authentication that is not finished.
  [[nodiscard]] bool reauthenticating() const { return session_.has_value() && authenticated(); }
  [[nodiscard]] const std::string& principal() const { return principal_; }
  [[nodiscard]] const std::string& host() const { return host_; }
  [[nodiscard]] std::string_view mechanism() const { return mechanism_; }

  // A SaslHandshake at `version` naming `mechanism`. kIllegalState: the listener has no
  // SASL, or the connection is mid-exchange, or a v0 handshake tries to re-authenticate.
  enum class HandshakeOutcome { kAccepted, kUnsupportedMechanism, kIllegalState };
  HandshakeOutcome handshake(std::string_view mechanism, std::int16_t version,
                             std::span<const std::string> enabled_mechanisms,
                             const CredentialStore& credentials, const SaslSettings& settings);

  // One SaslAuthenticate's auth_bytes, or one raw token. Only valid after an accepted
  // handshake (else a failure saying so). On success the connection is authenticated (a
  // re-authentication must keep the principal); on failure it must be closed.
  SaslReply authenticate(std::string_view auth_bytes, std::int64_t now_ms);

  // Whether the session ran out (KIP-368): only re-authentication may be served.
  [[nodiscard]] bool session_expired(std::int64_t now_ms) const {
    return session_expiry_ms_ && now_ms >= *session_expiry_ms_;
  }
  [[nodiscard]] std::optional<std::int64_t> session_expiry_ms() const { return session_expiry_ms_; }

 private:
  bool sasl_;
  Stage stage_;
  std::string host_;
  std::string principal_;
  std::string_view mechanism_;  // the mechanism of the last accepted handshake
  std::optional<SaslSession> session_;
  std::optional<std::int64_t> session_expiry_ms_;
};

}  // namespace kgroups::broker
