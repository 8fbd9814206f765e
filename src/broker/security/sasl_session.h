// SPDX-License-Identifier: Apache-2.0
//
// SaslSession: one SASL authentication exchange on one connection, for one mechanism
// (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 or OAUTHBEARER), as the network layer will drive it:
// fed each SaslAuthenticate request's auth_bytes, it answers bytes to send back, or success
// with the principal ("User:<name>") and the session lifetime for KIP-368 re-authentication,
// or failure with the error message Kafka's SaslServerAuthenticator would send. It knows
// nothing of sockets or the wire format. Not thread-safe: one per connection.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "broker/security/credential_store.h"
#include "broker/security/oauthbearer_server.h"
#include "broker/security/plain_mechanism.h"
#include "broker/security/scram_server.h"

namespace kgroups::broker {

struct SaslSettings {
  // Kafka's sasl.server.max.receive.size default: the longest auth_bytes accepted.
  static constexpr std::size_t kDefaultMaxReceiveBytes = 524'288;

  // connections.max.reauth.ms: the longest a session lasts before the client must
  // re-authenticate; 0 for no limit (a token's expiry still bounds it).
  std::int64_t connections_max_reauth_ms = 0;
  std::size_t max_receive_bytes = kDefaultMaxReceiveBytes;
  OAuthBearerSettings oauthbearer;
};

// The answer to one SaslAuthenticate request.
struct SaslReply {
  enum class Outcome { kContinue, kAuthenticated, kFailed };

  Outcome outcome = Outcome::kFailed;
  std::string auth_bytes;                // what to send back (the challenge, or the final bytes)
  std::string principal;                 // on success: "User:<name>"
  std::int64_t session_lifetime_ms = 0;  // on success: KIP-368's lifetime; 0 = unlimited
  std::string error_message;             // on failure: what the client reads
  std::string log_reason;                // on failure: why, for the broker's log only
};

class SaslSession {
 public:
  // A session for `mechanism` (its SASL name, exact), or nullopt when it is none of the four.
  // `reauthentication` says whether this exchange re-authenticates an authenticated
  // connection (KIP-368), which Kafka's failure message names. `store` must outlive it.
  static std::optional<SaslSession> start(std::string_view mechanism, const CredentialStore& store,
                                          const SaslSettings& settings,
                                          bool reauthentication = false,
                                          ScramNonceSource nonce_source = random_scram_nonce);

  // Feeds one request's auth_bytes; `now_ms` is the wall clock in epoch ms (for token
  // expiry and the session lifetime).
  SaslReply step(std::string_view auth_bytes, std::int64_t now_ms);

  [[nodiscard]] std::string_view mechanism() const { return mechanism_; }

 private:
  using MechanismServer = std::variant<PlainAuthenticator, ScramServer, OAuthBearerServer>;

  SaslSession(std::string_view mechanism, MechanismServer server, const SaslSettings& settings,
              bool reauthentication);
  [[nodiscard]] SaslReply reply_to(SaslStep step, std::int64_t now_ms) const;
  [[nodiscard]] std::int64_t session_lifetime_ms(std::optional<std::int64_t> credential_expiry_ms,
                                                 std::int64_t now_ms) const;
  [[nodiscard]] std::string generic_failure_message() const;

  std::string_view mechanism_;  // one of the four static names
  MechanismServer server_;
  std::int64_t connections_max_reauth_ms_;
  std::size_t max_receive_bytes_;
  bool reauthentication_;
};

}  // namespace kgroups::broker
