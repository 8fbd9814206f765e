// SPDX-License-Identifier: Apache-2.0
//
// Listeners as Kafka names them (`listeners=PLAINTEXT://127.0.0.1:9092,SASL_SSL://...:9094`):
// each a security protocol, a host and a port. kgroupsd names a listener by its protocol
// (Kafka's default listener.security.protocol.map), so a broker has at most one listener of
// each protocol. parse_listeners() reads --listeners for every broker of the process: one list
// for all brokers (ports count up by node id, port 0 stays a free port each), or one list per
// broker separated by ';' (each with the same protocols, in the same order). An empty host is
// loopback (Kafka binds every interface there; kgroupsd listens on 127.0.0.1 unless told).
// Thread-safe: plain values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kgroups::broker {

// Kafka's SecurityProtocol.
enum class SecurityProtocol : std::uint8_t { kPlaintext, kSsl, kSaslPlaintext, kSaslSsl };

// "PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL".
std::string_view security_protocol_name(SecurityProtocol protocol);
std::optional<SecurityProtocol> security_protocol_from_name(std::string_view name);
// Whether the listener speaks TLS (SSL, SASL_SSL) / asks for SASL (SASL_*).
constexpr bool uses_tls(SecurityProtocol protocol) {
  return protocol == SecurityProtocol::kSsl || protocol == SecurityProtocol::kSaslSsl;
}
constexpr bool uses_sasl(SecurityProtocol protocol) {
  return protocol == SecurityProtocol::kSaslPlaintext || protocol == SecurityProtocol::kSaslSsl;
}

// One listener of one broker.
struct ListenerAddress {
  SecurityProtocol protocol = SecurityProtocol::kPlaintext;
  std::string host = "127.0.0.1";
  std::uint16_t port = 0;  // 0: a free port

  // "SASL_SSL://127.0.0.1:9094" (IPv6 hosts in brackets).
  [[nodiscard]] std::string text() const;
  friend bool operator==(const ListenerAddress&, const ListenerAddress&) = default;
};

// Every broker's listeners, by node id; the same protocols in the same order for each broker.
using BrokerListeners = std::vector<std::vector<ListenerAddress>>;

struct ListenersParse {
  BrokerListeners listeners;
  std::optional<std::string> error;  // what was wrong and what to write instead
};

// Reads `text` (the value of `flag`, named in messages) for `brokers` brokers.
ListenersParse parse_listeners(std::string_view text, std::int32_t brokers,
                               std::string_view flag = "--listeners");

}  // namespace kgroups::broker
