// SPDX-License-Identifier: Apache-2.0
//
// SaslStep: what one SASL mechanism answers to one client message: a challenge to send
// back, success (the authenticated user, the last bytes to send, and when the credential
// expires if it does), or failure. A failure keeps why (for the broker's log) apart from
// what the client may read: most failures show the client only Kafka's generic message (as
// Kafka's SaslException does), a few a message of their own (as its SaslAuthenticationException).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace kgroups::broker {

struct SaslStep {
  enum class Outcome { kChallenge, kAuthenticated, kFailed };

  Outcome outcome = Outcome::kFailed;
  std::string bytes;  // the challenge, or the final bytes on success (may be empty)
  std::string user;   // on success: the authenticated user's name (no "User:" prefix)
  std::optional<std::int64_t> credential_expiry_ms;  // on success: epoch ms, when it expires
  std::string client_error;  // on failure: what the client may read; empty = Kafka's generic one
  std::string log_reason;    // on failure: why, for the broker's log (never sent)

  static SaslStep challenge(std::string bytes) {
    SaslStep step;
    step.outcome = Outcome::kChallenge;
    step.bytes = std::move(bytes);
    return step;
  }
  static SaslStep authenticated(std::string user, std::string final_bytes = {},
                                std::optional<std::int64_t> credential_expiry_ms = {}) {
    SaslStep step;
    step.outcome = Outcome::kAuthenticated;
    step.user = std::move(user);
    step.bytes = std::move(final_bytes);
    step.credential_expiry_ms = credential_expiry_ms;
    return step;
  }
  // A failure the client sees only as Kafka's generic message.
  static SaslStep failed(std::string log_reason) {
    SaslStep step;
    step.log_reason = std::move(log_reason);
    return step;
  }
  // A failure whose message the client reads.
  static SaslStep refused(std::string client_error) {
    SaslStep step;
    step.log_reason = client_error;
    step.client_error = std::move(client_error);
    return step;
  }
};

}  // namespace kgroups::broker
