// SPDX-License-Identifier: Apache-2.0
//
// OAuthBearerServer: the server side of SASL OAUTHBEARER (RFC 7628) with Kafka's default,
// unsecured token check (unsecured_jws.h). The client's initial response is
//   gs2-header \x01 auth=Bearer <token> \x01 [key=value \x01]... \x01
// with gs2-header "n,," or "n,a=<authzid>,". A valid token authenticates its principal,
// whose credential expires at the token's "exp". An invalid one is answered, as RFC 7628
// section 3.2.2 and Kafka do, with a JSON error challenge ({"status":"invalid_token"}, or
// "insufficient_scope" with the missing scope); when the client then sends a single \x01,
// the exchange fails with that JSON as the client's message, and anything else is taken as a
// new initial response (Kafka's OAuthBearerSaslServer does the same). A malformed response, an
// oversize token or an authzid other than the principal fail at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "broker/security/sasl_step.h"
#include "broker/security/unsecured_jws.h"

namespace kgroups::broker {

struct OAuthBearerSettings {
  // Longest token accepted. An unsecured JWS with a few claims is a few hundred bytes; real
  // IdP tokens a few KiB; 16 KiB leaves room for large scope lists.
  static constexpr std::size_t kDefaultMaxTokenBytes = std::size_t{16} * 1024;

  UnsecuredJwsSettings jws;
  std::size_t max_token_bytes = kDefaultMaxTokenBytes;
};

class OAuthBearerServer {
 public:
  explicit OAuthBearerServer(OAuthBearerSettings settings) : settings_(std::move(settings)) {}

  // Feeds the next client message, checking a token against `now_ms` (epoch ms).
  SaslStep step(std::string_view message, std::int64_t now_ms);

 private:
  enum class State { kAwaitInitialResponse, kAwaitErrorAcknowledgement, kFinished };

  SaslStep receive_initial_response(std::string_view message, std::int64_t now_ms);
  SaslStep fail(std::string_view reason);

  OAuthBearerSettings settings_;
  State state_ = State::kAwaitInitialResponse;
  std::string error_challenge_;  // the JSON sent after a refused token
};

}  // namespace kgroups::broker
