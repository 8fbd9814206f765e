// SPDX-License-Identifier: Apache-2.0
//
// Kafka's default OAUTHBEARER token check, for unsecured JWS tokens (RFC 7515 with
// alg "none", as Kafka's OAuthBearerUnsecuredJws and OAuthBearerUnsecuredValidatorCallbackHandler
// accept them): three base64url parts, the last (the signature) empty; a header whose "alg"
// is "none"; claims holding the principal (a string, claim "sub" unless configured), "exp"
// (seconds since the epoch, required, in the future on the given clock give or take the
// allowed skew), "iat" (optional, not in the future, before "exp") and the scope (a
// space-separated string or an array of strings) that must hold every required scope.
// No signature is checked: this is for development and tests, as in Kafka.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace kgroups::broker {

struct UnsecuredJwsSettings {
  std::string principal_claim = "sub";       // Kafka's unsecuredValidatorPrincipalClaimName
  std::string scope_claim = "scope";         // unsecuredValidatorScopeClaimName
  std::vector<std::string> required_scopes;  // unsecuredValidatorRequiredScope
  std::int64_t allowable_clock_skew_ms = 0;  // unsecuredValidatorAllowableClockSkewMs
};

// A token that passed.
struct UnsecuredJwsClaims {
  std::string principal;
  std::int64_t expiry_ms = 0;  // epoch ms
  std::vector<std::string> scopes;
};

// Why a token failed: `reason` for the log; `missing_scope` when it lacks a required scope
// (Kafka then answers "insufficient_scope" naming it, otherwise "invalid_token").
struct UnsecuredJwsRejection {
  std::string reason;
  std::optional<std::string> missing_scope;
};

using UnsecuredJwsCheck = std::variant<UnsecuredJwsClaims, UnsecuredJwsRejection>;

UnsecuredJwsCheck check_unsecured_jws(std::string_view token, const UnsecuredJwsSettings& settings,
                                      std::int64_t now_ms);

}  // namespace kgroups::broker
