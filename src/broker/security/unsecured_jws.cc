// SPDX-License-Identifier: Apache-2.0
#include "broker/security/unsecured_jws.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "broker/security/base64.h"

namespace kgroups::broker {
namespace {

using nlohmann::json;

UnsecuredJwsRejection rejection(std::string reason) { return {std::move(reason), std::nullopt}; }

// A base64url part decoded and parsed as a JSON object, or nullopt.
std::optional<json> json_object_part(std::string_view part) {
  const std::optional<std::string> text = base64url_decode(part);
  if (!text) return std::nullopt;
  json parsed = json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object()) return std::nullopt;
  return parsed;
}

// A NumericDate claim (seconds, maybe fractional) in epoch ms; nullopt when it is not a
// number or too far out to be a time.
std::optional<std::int64_t> numeric_date_ms(const json& claim) {
  if (!claim.is_number()) return std::nullopt;
  const double seconds = claim.get<double>();
  constexpr double kMaxSeconds = 9.0e12;  // keeps seconds * 1000 inside int64
  if (!std::isfinite(seconds) || std::fabs(seconds) > kMaxSeconds) return std::nullopt;
  return static_cast<std::int64_t>(std::llround(seconds * 1000.0));
}

// The scope claim as a list: a space-separated string or an array of strings; nullopt for
// any other type. An absent claim is the empty scope.
std::optional<std::vector<std::string>> scopes_of(const json& claims, const std::string& name) {
  std::vector<std::string> scopes;
  const auto claim = claims.find(name);
  if (claim == claims.end()) return scopes;
  if (claim->is_string()) {
    const std::string& text = claim->get_ref<const std::string&>();
    std::size_t start = 0;
    while ((start = text.find_first_not_of(' ', start)) != std::string::npos) {
      const std::size_t end = text.find(' ', start);
      scopes.push_back(text.substr(start, end - start));
      start = end;
    }
    return scopes;
  }
  if (!claim->is_array()) return std::nullopt;
  for (const json& element : *claim) {
    if (!element.is_string()) return std::nullopt;
    scopes.push_back(element.get<std::string>());
  }
  return scopes;
}

// Checks "exp" and "iat" against `now_ms`; on success stores the expiry in `out`.
std::optional<UnsecuredJwsRejection> check_times(const json& claims,
                                                 const UnsecuredJwsSettings& settings,
                                                 std::int64_t now_ms, UnsecuredJwsClaims& out) {
  const auto exp = claims.find("exp");
  if (exp == claims.end()) return rejection("no exp claim");
  const std::optional<std::int64_t> expiry_ms = numeric_date_ms(*exp);
  if (!expiry_ms) return rejection("exp is not a number of seconds");
  if (now_ms >= *expiry_ms + settings.allowable_clock_skew_ms) return rejection("token expired");
  const auto iat = claims.find("iat");
  if (iat != claims.end()) {
    const std::optional<std::int64_t> issued_ms = numeric_date_ms(*iat);
    if (!issued_ms) return rejection("iat is not a number of seconds");
    if (*issued_ms > now_ms + settings.allowable_clock_skew_ms)
      return rejection("iat in the future");
    if (*expiry_ms <= *issued_ms) return rejection("exp is not after iat");
  }
  out.expiry_ms = *expiry_ms;
  return std::nullopt;
}

UnsecuredJwsCheck check_claims(const json& claims, const UnsecuredJwsSettings& settings,
                               std::int64_t now_ms) {
  UnsecuredJwsClaims result;
  const auto principal = claims.find(settings.principal_claim);
  if (principal == claims.end() || !principal->is_string() ||
      principal->get_ref<const std::string&>().empty()) {
    return rejection("no string " + settings.principal_claim + " claim");
  }
  result.principal = principal->get<std::string>();
  if (auto refused = check_times(claims, settings, now_ms, result)) return *refused;
  std::optional<std::vector<std::string>> scopes = scopes_of(claims, settings.scope_claim);
  if (!scopes) return rejection(settings.scope_claim + " is neither a string nor strings");
  for (const std::string& required : settings.required_scopes) {
    if (std::find(scopes->begin(), scopes->end(), required) == scopes->end()) {
      return UnsecuredJwsRejection{"missing required scope " + required, required};
    }
  }
  result.scopes = std::move(*scopes);
  return result;
}

}  // namespace

UnsecuredJwsCheck check_unsecured_jws(std::string_view token, const UnsecuredJwsSettings& settings,
                                      std::int64_t now_ms) {
  const std::size_t first_dot = token.find('.');
  const std::size_t second_dot =
      first_dot == std::string_view::npos ? first_dot : token.find('.', first_dot + 1);
  if (second_dot == std::string_view::npos) return rejection("not three dot-separated parts");
  if (second_dot + 1 != token.size()) {
    return rejection(token.find('.', second_dot + 1) == std::string_view::npos
                         ? "an unsecured JWS must have an empty signature"
                         : "not three dot-separated parts");
  }
  const std::optional<json> header = json_object_part(token.substr(0, first_dot));
  if (!header) return rejection("the header is not base64url JSON");
  const auto alg = header->find("alg");
  if (alg == header->end() || !alg->is_string() || alg->get_ref<const std::string&>() != "none") {
    return rejection("the header's alg is not \"none\"");
  }
  const std::optional<json> claims =
      json_object_part(token.substr(first_dot + 1, second_dot - first_dot - 1));
  if (!claims) return rejection("the claims are not base64url JSON");
  return check_claims(*claims, settings, now_ms);
}

}  // namespace kgroups::broker
