// SPDX-License-Identifier: Apache-2.0
//
// SecurityConfig: kgroupsd's security settings as plain data, with Kafka's names (the flags
// are the config names with dashes): TLS key material and client authentication, the SASL
// mechanisms and users, the authorizer's super users and default, and the bounds on what an
// unauthenticated or failing client can make the broker spend are BrokerConfig's, in the
// limit table (docs/SECURITY.md, docs/LIMITS.md). Which listeners use them is BrokerListeners
// (listener_config.h). Not synchronized: filled in once before the broker starts, then only read.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kgroups::broker {

// ssl.client.auth.
enum class SslClientAuth : std::uint8_t { kNone, kRequested, kRequired };

struct SecurityConfig {
  // ssl.keystore.location with ssl.keystore.type=PEM: the certificate chain and private key;
  // ssl.truststore.location: the CAs that sign client certificates.
  std::string ssl_keystore_location;
  std::string ssl_truststore_location;
  SslClientAuth ssl_client_auth = SslClientAuth::kNone;
  // sasl.enabled.mechanisms (Kafka's default is GSSAPI, which kgroupsd does not serve).
  std::vector<std::string> sasl_enabled_mechanisms{"PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512",
                                                   "OAUTHBEARER"};
  std::string sasl_users_file;  // USER:PASSWORD lines, for PLAIN and both SCRAMs
  // super.users ("User:admin;User:ops") and allow.everyone.if.no.acl.found.
  std::string super_users;
  bool allow_everyone_if_no_acl_found = false;
  // The authorizer is on with --authorizer, or when a listener uses SSL or SASL.
  bool authorizer = false;
  // connections.max.reauth.ms (KIP-368): 0, no limit but a token's expiry.
  std::int64_t connections_max_reauth_ms = 0;
  // OAUTHBEARER's unsecured validator (Kafka's unsecuredValidator* options).
  std::string oauthbearer_required_scope;
  std::int64_t oauthbearer_allowable_clock_skew_ms = 0;
};

}  // namespace kgroups::broker
