// SPDX-License-Identifier: Apache-2.0
//
// AccessControl: the broker's security state that outlives connections — the SASL users
// (CredentialStore), the ACLs (AclStore) and the Authorizer over them, with the settings the
// connections authenticate by (enabled mechanisms, SaslSettings). Handlers ask allows() before
// they act: with the authorizer off (no SSL or SASL listener and no --authorizer) everything is
// allowed and the check is one branch; on, it is Kafka's StandardAuthorizer decision for the
// connection's principal and host (authorizer.h). A denial is logged at DEBUG with its reason.
// Not thread-safe: the broker's network thread owns it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "broker/authorizer/acl_store.h"
#include "broker/authorizer/authorizer.h"
#include "broker/config/broker_config.h"
#include "broker/security/auth_failure_backoff.h"
#include "broker/security/connection_auth.h"
#include "broker/security/credential_store.h"
#include "broker/security/sasl_session.h"

namespace kgroups::broker {

class AccessControl {
 public:
  // Reads super users and the users file of `config.security`, with the stores' bounds of
  // `config`. Throws std::invalid_argument saying what to change when super.users is malformed
  // or the users file cannot be used.
  explicit AccessControl(const BrokerConfig& config);

  AccessControl(const AccessControl&) = delete;
  AccessControl& operator=(const AccessControl&) = delete;

  // Whether the authorizer decides (else every action is allowed).
  [[nodiscard]] bool authorizer_enabled() const { return authorizer_enabled_; }
  // Whether `who` (null: an anonymous client, as in handler tests) may perform `operation` on
  // the resource. Logs a denial at DEBUG.
  [[nodiscard]] bool allows(const ConnectionAuth* who, AclOperation operation, AclResourceType type,
                            std::string_view name) const {
    if (!authorizer_enabled_) return true;
    return decide(who, operation, type, name);
  }

  CredentialStore& credentials() { return credentials_; }
  [[nodiscard]] const CredentialStore& credentials() const { return credentials_; }
  AclStore& acls() { return acls_; }
  [[nodiscard]] const AclStore& acls() const { return acls_; }
  [[nodiscard]] const Authorizer& authorizer() const { return authorizer_; }
  [[nodiscard]] const std::vector<std::string>& enabled_mechanisms() const {
    return enabled_mechanisms_;
  }
  [[nodiscard]] const SaslSettings& sasl_settings() const { return sasl_settings_; }
  [[nodiscard]] const SecurityConfig& config() const { return config_; }
  // How long failed authentications wait before their connection closes, per address.
  AuthFailureBackoff& failure_backoff() { return failure_backoff_; }

 private:
  [[nodiscard]] bool decide(const ConnectionAuth* who, AclOperation operation, AclResourceType type,
                            std::string_view name) const;

  SecurityConfig config_;
  CredentialStore credentials_;
  AclStore acls_;
  Authorizer authorizer_;
  bool authorizer_enabled_;
  std::vector<std::string> enabled_mechanisms_;
  SaslSettings sasl_settings_;
  AuthFailureBackoff failure_backoff_;
};

}  // namespace kgroups::broker
