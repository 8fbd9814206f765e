// SPDX-License-Identifier: Apache-2.0
//
// ScramServer: the server side of one SCRAM-SHA-256 or SCRAM-SHA-512 exchange (RFC 5802,
// RFC 7677), as a state machine fed the client's messages:
//   client-first-message  -> server-first-message (the client's nonce + ours, salt, iterations)
//   client-final-message  -> server-final-message "v=<ServerSignature>", and success
// The gs2 header is "n," (no channel binding) and an optional authorization id, which must
// be the user's name, as Kafka's ScramSaslServer has it ("n,," or "n,a=alice,").
// Refused: channel binding, an authorization id other than the user, the reserved "m="
// attribute, Kafka's `tokenauth` extension (no delegation tokens here), an unknown user, a
// final message whose channel binding is not the base64 of the header sent, a nonce not ours,
// a wrong proof, a malformed or oversize message. Failures show the client only Kafka's generic
// message.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "broker/security/credential_store.h"
#include "broker/security/sasl_step.h"
#include "broker/security/scram_keys.h"

namespace kgroups::broker {

// Makes the server's part of a nonce: printable ASCII without ','. Tests inject a fixed one.
using ScramNonceSource = std::function<std::string()>;
// 32 random letters and digits from RAND_bytes.
std::string random_scram_nonce();

// RFC 5802's saslname: ',' is written "=2C" and '=' "=3D". Decoding fails (nullopt) on any
// other '=' sequence or an empty result.
std::string scram_saslname_encode(std::string_view name);
std::optional<std::string> scram_saslname_decode(std::string_view saslname);

class ScramServer {
 public:
  // Longest client message accepted; a real one is well under 300 bytes.
  static constexpr std::size_t kMaxMessageBytes = 4096;

  // `store` must outlive the server; the credential is copied at the first message, so a
  // change to the store mid-exchange does not affect it.
  ScramServer(ScramMechanism mechanism, const CredentialStore& store,
              ScramNonceSource nonce_source = random_scram_nonce);

  // Feeds the next client message. After success or failure every further message fails.
  SaslStep step(std::string_view message);

  [[nodiscard]] ScramMechanism mechanism() const { return mechanism_; }

 private:
  enum class State { kAwaitClientFirst, kAwaitClientFinal, kFinished };

  SaslStep receive_client_first(std::string_view message);
  SaslStep receive_client_final(std::string_view message);
  SaslStep fail(std::string_view reason);
  [[nodiscard]] bool proof_is_valid(const ScramDigest& proof, std::string_view auth_message) const;

  ScramMechanism mechanism_;
  const CredentialStore& store_;
  ScramNonceSource nonce_source_;
  State state_ = State::kAwaitClientFirst;
  std::string user_;
  std::string gs2_header_;  // as the client sent it, e.g. "n,,"
  std::string client_first_bare_;
  std::string server_first_;
  std::string nonce_;  // the client's nonce followed by ours
  ScramCredential credential_;
};

}  // namespace kgroups::broker
