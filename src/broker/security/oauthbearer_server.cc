// SPDX-License-Identifier: Apache-2.0
#include "broker/security/oauthbearer_server.h"

#include <nlohmann/json.hpp>
#include <optional>

#include "broker/runtime/ascii_case.h"
#include "broker/security/scram_server.h"

namespace kgroups::broker {
namespace {

constexpr char kSeparator = '\x01';

// The parts of an initial response that matter: the authzid (empty when none) and the
// "auth" value.
struct OAuthBearerInitialResponse {
  std::string authzid;
  std::string_view auth;
};

bool is_key(std::string_view key) {
  if (key.empty()) return false;
  for (const char c : key) {
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) return false;
  }
  return true;
}

// RFC 7628's value: VCHAR / SP / HTAB / CR / LF.
bool is_value(std::string_view value) {
  for (const char c : value) {
    if (!((c >= 0x21 && c <= 0x7E) || c == ' ' || c == '\t' || c == '\r' || c == '\n')) {
      return false;
    }
  }
  return true;
}

// Takes "n,," or "n,a=<saslname>," off `rest`; the decoded authzid, or nullopt.
std::optional<std::string> take_gs2_header(std::string_view& rest) {
  if (!rest.starts_with("n,")) return std::nullopt;
  rest.remove_prefix(2);
  const std::size_t comma = rest.find(',');
  if (comma == std::string_view::npos) return std::nullopt;
  const std::string_view authzid = rest.substr(0, comma);
  rest.remove_prefix(comma + 1);
  if (authzid.empty()) return std::string();
  if (!authzid.starts_with("a=")) return std::nullopt;
  return scram_saslname_decode(authzid.substr(2));
}

std::optional<OAuthBearerInitialResponse> parse_initial_response(std::string_view message) {
  OAuthBearerInitialResponse parsed;
  std::optional<std::string> authzid = take_gs2_header(message);
  if (!authzid || message.empty() || message.front() != kSeparator) return std::nullopt;
  parsed.authzid = std::move(*authzid);
  message.remove_prefix(1);
  bool has_auth = false;
  while (message != std::string_view(&kSeparator, 1)) {
    const std::size_t end = message.find(kSeparator);
    if (end == std::string_view::npos) return std::nullopt;
    const std::string_view pair = message.substr(0, end);
    message.remove_prefix(end + 1);
    const std::size_t equals = pair.find('=');
    if (equals == std::string_view::npos || !is_key(pair.substr(0, equals)) ||
        !is_value(pair.substr(equals + 1))) {
      return std::nullopt;
    }
    if (pair.substr(0, equals) == "auth") {
      if (has_auth) return std::nullopt;
      has_auth = true;
      parsed.auth = pair.substr(equals + 1);
    }
  }
  if (!has_auth) return std::nullopt;
  return parsed;
}

// RFC 6750's b64token: 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=".
bool is_b64token(std::string_view token) {
  const std::size_t padding_at = token.find_last_not_of('=');
  if (padding_at == std::string_view::npos) return false;
  for (const char c : token.substr(0, padding_at + 1)) {
    const bool allowed = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                         (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~' ||
                         c == '+' || c == '/';
    if (!allowed) return false;
  }
  return true;
}

// The token of an "auth" value "Bearer <token>" (scheme in any case), or nullopt.
std::optional<std::string_view> bearer_token(std::string_view auth) {
  const std::size_t space = auth.find(' ');
  if (space == std::string_view::npos || ascii_lowercase(auth.substr(0, space)) != "bearer") {
    return std::nullopt;
  }
  const std::size_t token_at = auth.find_first_not_of(' ', space);
  if (token_at == std::string_view::npos) return std::nullopt;
  const std::string_view token = auth.substr(token_at);
  if (!is_b64token(token)) return std::nullopt;
  return token;
}

std::string error_challenge(const UnsecuredJwsRejection& rejection) {
  nlohmann::ordered_json error;
  error["status"] = rejection.missing_scope ? "insufficient_scope" : "invalid_token";
  if (rejection.missing_scope) error["scope"] = *rejection.missing_scope;
  return error.dump();
}

}  // namespace

SaslStep OAuthBearerServer::fail(std::string_view reason) {
  state_ = State::kFinished;
  return SaslStep::failed(std::string("OAUTHBEARER: ").append(reason));
}

SaslStep OAuthBearerServer::step(std::string_view message, std::int64_t now_ms) {
  switch (state_) {
    case State::kAwaitInitialResponse:
      return receive_initial_response(message, now_ms);
    case State::kAwaitErrorAcknowledgement:
      if (message == std::string_view(&kSeparator, 1)) {
        state_ = State::kFinished;
        return SaslStep::refused(error_challenge_);
      }
      // Kafka's OAuthBearerSaslServer takes anything else as a new initial response (the
      // authentication timeout bounds how long a client may go on trying).
      return receive_initial_response(message, now_ms);
    case State::kFinished:
      break;
  }
  return fail("message after the exchange ended");
}

SaslStep OAuthBearerServer::receive_initial_response(std::string_view message,
                                                     std::int64_t now_ms) {
  // A token may not exceed its bound, so neither may the response (with room for framing).
  if (message.size() > settings_.max_token_bytes + 1024) {
    return fail("initial response of " + std::to_string(message.size()) + " bytes is too long");
  }
  const std::optional<OAuthBearerInitialResponse> response = parse_initial_response(message);
  if (!response) return fail("invalid OAUTHBEARER client first message");
  const std::optional<std::string_view> token = bearer_token(response->auth);
  if (!token) return fail("invalid auth value: expected \"Bearer <token>\"");
  if (token->size() > settings_.max_token_bytes) {
    return fail("token of " + std::to_string(token->size()) + " bytes exceeds " +
                std::to_string(settings_.max_token_bytes));
  }
  UnsecuredJwsCheck check = check_unsecured_jws(*token, settings_.jws, now_ms);
  if (const auto* rejection = std::get_if<UnsecuredJwsRejection>(&check)) {
    error_challenge_ = error_challenge(*rejection);
    state_ = State::kAwaitErrorAcknowledgement;
    return SaslStep::challenge(error_challenge_);
  }
  auto& claims = std::get<UnsecuredJwsClaims>(check);
  state_ = State::kFinished;
  if (!response->authzid.empty() && response->authzid != claims.principal) {
    return SaslStep::refused(
        "Authentication failed: Client requested an authorization id (" + response->authzid +
        ") that is different from the token's principal name (" + claims.principal + ")");
  }
  return SaslStep::authenticated(std::move(claims.principal), {}, claims.expiry_ms);
}

}  // namespace kgroups::broker
