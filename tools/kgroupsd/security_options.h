// SPDX-License-Identifier: Apache-2.0
//
// kgroupsd's listener and security flags, with Kafka's config names: --listeners and
// --advertised-listeners (PROTOCOL://HOST:PORT lists, one per broker separated by ';'), the
// ssl.* key material and client authentication, sasl.enabled.mechanisms, the users file,
// super.users, allow.everyone.if.no.acl.found and --authorizer. resolve_listeners() turns
// them (or --listen's PLAINTEXT addresses) into BrokerConfig::listeners and ::security.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "broker/config/broker_config.h"

namespace kgroups::kgroupsd {

struct SecurityOptions {
  std::string listeners;             // --listeners
  std::string advertised_listeners;  // --advertised-listeners
  std::string mechanisms;            // --sasl-enabled-mechanisms, comma-separated
  std::string client_auth = "none";  // --ssl-client-auth
  bool http_remote_admin = false;    // --http-allow-remote-admin
};

void add_security_options(CLI::App& app, broker::BrokerConfig& config, SecurityOptions& options);

// Fills config.listeners from --listeners, or from `listen` (--listen's addresses, one per
// broker) as PLAINTEXT listeners, and config.security from the flags; turns the authorizer on
// when a listener uses SSL or SASL. `listen_given`: --listen was on the command line (it
// cannot be combined with --listeners). Throws CLI::ValidationError saying what to change.
void resolve_listeners(const SecurityOptions& options,
                       const std::vector<std::pair<std::string, std::uint16_t>>& listen,
                       bool listen_given, broker::BrokerConfig& config);

// The advertised address of broker `node`'s listener `listener` from --advertised-listeners
// (matched by protocol), or {"", 0} when not given (the bound address is advertised).
std::pair<std::string, std::uint16_t> advertised_listener(const SecurityOptions& options,
                                                          const broker::BrokerConfig& config,
                                                          std::size_t node, std::size_t listener);

}  // namespace kgroups::kgroupsd
