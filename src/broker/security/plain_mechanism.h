// SPDX-License-Identifier: Apache-2.0
//
// PlainAuthenticator: the server side of SASL PLAIN (RFC 4616), one message
// `[authzid] NUL authcid NUL passwd`, checked against the CredentialStore. As in Kafka's
// PlainSaslServer, an empty user or password and a malformed message fail with the generic
// message; a wrong password or unknown user with "Invalid username or password"; an authzid
// other than the user with a message saying so.
#pragma once

#include <cstddef>
#include <string_view>

#include "broker/security/credential_store.h"
#include "broker/security/sasl_step.h"

namespace kgroups::broker {

class PlainAuthenticator {
 public:
  // RFC 4616 asks servers to accept 255 octets for each of the three parts; a message longer
  // than this holds more than any client sends.
  static constexpr std::size_t kMaxMessageBytes = 4096;

  // `store` must outlive the authenticator.
  explicit PlainAuthenticator(const CredentialStore& store) : store_(store) {}

  // Checks the one client message; any further message fails.
  SaslStep step(std::string_view message);

 private:
  const CredentialStore& store_;
  bool finished_ = false;
};

}  // namespace kgroups::broker
