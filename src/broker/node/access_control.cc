// SPDX-License-Identifier: Apache-2.0
#include "broker/node/access_control.h"

#include <stdexcept>

#include "broker/runtime/logger.h"

namespace kgroups::broker {
namespace {

AuthorizerConfig authorizer_config(const SecurityConfig& config) {
  const SuperUsersParse super_users = parse_super_users(config.super_users);
  if (super_users.error) throw std::invalid_argument("--super-users: " + *super_users.error);
  return {.super_users = super_users.principals,
          .allow_everyone_if_no_acl_found = config.allow_everyone_if_no_acl_found};
}

SaslSettings sasl_settings_of(const BrokerConfig& config) {
  const SecurityConfig& security = config.security;
  SaslSettings settings;
  settings.connections_max_reauth_ms = security.connections_max_reauth_ms;
  settings.max_receive_bytes = static_cast<std::size_t>(config.sasl_max_receive_bytes);
  if (!security.oauthbearer_required_scope.empty()) {
    settings.oauthbearer.jws.required_scopes.push_back(security.oauthbearer_required_scope);
  }
  settings.oauthbearer.jws.allowable_clock_skew_ms = security.oauthbearer_allowable_clock_skew_ms;
  return settings;
}

}  // namespace

AccessControl::AccessControl(const BrokerConfig& config)
    : config_(config.security),
      credentials_(static_cast<std::size_t>(config.max_scram_users)),
      acls_(static_cast<std::size_t>(config.max_acls)),
      authorizer_(acls_, authorizer_config(config.security)),
      authorizer_enabled_(config.security.authorizer),
      enabled_mechanisms_(config.security.sasl_enabled_mechanisms),
      sasl_settings_(sasl_settings_of(config)),
      failure_backoff_(std::chrono::milliseconds(config.failed_authentication_delay_ms),
                       config.max_failed_authentications_per_second) {
  for (const std::string& mechanism : enabled_mechanisms_) {
    if (!SaslSession::start(mechanism, credentials_, sasl_settings_)) {
      throw std::invalid_argument("--sasl-enabled-mechanisms: \"" + mechanism +
                                  "\" is not one of PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 and "
                                  "OAUTHBEARER");
    }
  }
  if (!config_.sasl_users_file.empty()) {
    if (const CredentialRefusal refusal = load_users_file(credentials_, config_.sasl_users_file)) {
      throw std::invalid_argument("--sasl-users: " + *refusal);
    }
  }
}

bool AccessControl::decide(const ConnectionAuth* who, AclOperation operation, AclResourceType type,
                           std::string_view name) const {
  const AuthorizationDecision decision = authorizer_.authorize(AclAction{
      .principal = who != nullptr ? std::string_view(who->principal()) : kAnonymousPrincipal,
      .host = who != nullptr ? std::string_view(who->host()) : std::string_view(),
      .operation = operation,
      .resource_type = type,
      .resource_name = name});
  if (!decision.allowed && log_enabled(LogLevel::kDebug)) {
    log_line(LogLevel::kDebug,
             std::string(who != nullptr ? who->principal() : std::string(kAnonymousPrincipal)) +
                 " may not " + std::string(acl_name(operation)) + " " +
                 std::string(acl_name(type)) + " " + quote(name) + ": " + decision.reason());
  }
  return decision.allowed;
}

}  // namespace kgroups::broker
