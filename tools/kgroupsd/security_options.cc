// SPDX-License-Identifier: Apache-2.0
#include "security_options.h"

#include <algorithm>

namespace kgroups::kgroupsd {
namespace {

using broker::BrokerListeners;
using broker::ListenerAddress;
using broker::SecurityProtocol;

std::vector<std::string> comma_list(const std::string& text) {
  std::vector<std::string> items;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t comma = std::min(text.find(',', begin), text.size());
    std::string item = text.substr(begin, comma - begin);
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    if (!item.empty()) items.push_back(std::move(item));
    begin = comma + 1;
  }
  return items;
}

broker::SslClientAuth client_auth_named(const std::string& text) {
  if (text == "required") return broker::SslClientAuth::kRequired;
  if (text == "requested") return broker::SslClientAuth::kRequested;
  if (text == "none") return broker::SslClientAuth::kNone;
  throw CLI::ValidationError("--ssl-client-auth",
                             "expected required, requested or none, got \"" + text + "\"");
}

BrokerListeners parsed(const std::string& text, const char* flag, std::int32_t brokers) {
  broker::ListenersParse parse = broker::parse_listeners(text, brokers, flag);
  if (parse.error) throw CLI::ValidationError(*parse.error);
  return std::move(parse.listeners);
}

}  // namespace

void add_security_options(CLI::App& app, broker::BrokerConfig& config, SecurityOptions& options) {
  broker::SecurityConfig& security = config.security;
  app.add_option("--listeners", options.listeners,
                 "Listeners as Kafka writes them, PROTOCOL://HOST:PORT comma-separated, with "
                 "PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL (at most one of each), e.g. "
                 "PLAINTEXT://127.0.0.1:9092,SASL_SSL://127.0.0.1:9094. With --brokers N: one "
                 "list for all (nonzero ports count up by node id) or one per broker separated "
                 "by ';'. Replaces --listen (docs/SECURITY.md)");
  app.add_option("--advertised-listeners", options.advertised_listeners,
                 "Addresses given to clients in Metadata per listener, as --listeners takes "
                 "them (default: the bound ones)");
  app.add_option("--ssl-keystore-location", security.ssl_keystore_location,
                 "PEM file with the broker's certificate chain and unencrypted private key, for "
                 "SSL and SASL_SSL listeners (ssl.keystore.type=PEM; `kgroups certs DIR` makes "
                 "one for tests)");
  app.add_option("--ssl-truststore-location", security.ssl_truststore_location,
                 "PEM file with the CAs that sign client certificates");
  app.add_option("--ssl-client-auth", options.client_auth,
                 "Client certificates: required, requested or none; a verified one's subject "
                 "is the principal (User:CN=...)")
      ->capture_default_str();
  app.add_option("--sasl-enabled-mechanisms", options.mechanisms,
                 "SASL mechanisms served, comma-separated (default PLAIN,SCRAM-SHA-256,"
                 "SCRAM-SHA-512,OAUTHBEARER)");
  app.add_option("--sasl-users", security.sasl_users_file,
                 "File of USER:PASSWORD lines, the users of PLAIN and both SCRAMs (stored as "
                 "salted SCRAM credentials)");
  app.add_option("--super-users", security.super_users,
                 "Principals the authorizer always allows, ';'-separated (super.users), e.g. "
                 "\"User:admin;User:ops\"");
  app.add_flag("--allow-everyone-if-no-acl-found", security.allow_everyone_if_no_acl_found,
               "Allow an action on a resource no ACL names (allow.everyone.if.no.acl.found)");
  app.add_flag("--authorizer", security.authorizer,
               "Check ACLs on every request (on anyway when a listener uses SSL or SASL)");
  app.add_flag("--http-allow-remote-admin", options.http_remote_admin,
               "Serve --http on a non-loopback address although the authorizer is on (the "
               "endpoint has no authentication and can change users and ACLs)");
  app.add_option("--connections-max-reauth-ms", security.connections_max_reauth_ms,
                 "Longest SASL session before the client must re-authenticate (KIP-368); 0: "
                 "no limit but a token's expiry")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{86'400'000}));
  app.add_option("--sasl-oauthbearer-required-scope", security.oauthbearer_required_scope,
                 "A scope every OAUTHBEARER token must carry (unsecuredValidatorRequiredScope)");
  app.add_option("--sasl-oauthbearer-clock-skew-ms", security.oauthbearer_allowable_clock_skew_ms,
                 "Clock skew allowed when checking a token's exp and iat "
                 "(unsecuredValidatorAllowableClockSkewMs)")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{3'600'000}));
}

void resolve_listeners(const SecurityOptions& options,
                       const std::vector<std::pair<std::string, std::uint16_t>>& listen,
                       bool listen_given, broker::BrokerConfig& config) {
  if (!options.listeners.empty() && listen_given) {
    throw CLI::ValidationError("--listen and --listeners",
                               "give one of them: --listen HOST:PORT is a PLAINTEXT listener, "
                               "--listeners PLAINTEXT://HOST:PORT,SASL_SSL://HOST:PORT names "
                               "several");
  }
  if (options.listeners.empty()) {
    config.listeners.clear();
    for (const auto& [host, port] : listen) {
      config.listeners.push_back({ListenerAddress{SecurityProtocol::kPlaintext, host, port}});
    }
  } else {
    config.listeners = parsed(options.listeners, "--listeners", config.brokers);
  }
  const ListenerAddress& first = config.listeners.front().front();
  config.listen_host = first.host;
  config.listen_port = first.port;
  if (!options.advertised_listeners.empty()) {
    (void)parsed(options.advertised_listeners, "--advertised-listeners", config.brokers);
  }
  if (!options.mechanisms.empty()) {
    config.security.sasl_enabled_mechanisms = comma_list(options.mechanisms);
  }
  config.security.ssl_client_auth = client_auth_named(options.client_auth);
  for (const ListenerAddress& listener : config.listeners.front()) {
    if (listener.protocol != SecurityProtocol::kPlaintext) config.security.authorizer = true;
  }
}

std::pair<std::string, std::uint16_t> advertised_listener(const SecurityOptions& options,
                                                          const broker::BrokerConfig& config,
                                                          std::size_t node, std::size_t listener) {
  if (options.advertised_listeners.empty()) return {};
  const BrokerListeners advertised =
      parsed(options.advertised_listeners, "--advertised-listeners", config.brokers);
  const SecurityProtocol protocol = config.listeners.at(node).at(listener).protocol;
  for (const ListenerAddress& address : advertised.at(node)) {
    if (address.protocol == protocol) return {address.host, address.port};
  }
  return {};
}

}  // namespace kgroups::kgroupsd
