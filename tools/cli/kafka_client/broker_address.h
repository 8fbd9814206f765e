// SPDX-License-Identifier: Apache-2.0
//
// BrokerAddress: a Kafka broker's "HOST:PORT", as --bootstrap-server takes it and as
// Metadata and FindCoordinator return it. The host may be a name, an IPv4 address or a
// bracketed IPv6 address ("[::1]:9092"). Value type; thread-safe as any value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kgroups::cli {

struct BrokerAddress {
  std::string host;        // without brackets
  std::uint16_t port = 0;  // 1-65535

  // "host:port", with brackets around an IPv6 host.
  [[nodiscard]] std::string to_string() const;
  bool operator==(const BrokerAddress&) const = default;
};

// Parses "HOST:PORT". Returns nullopt when the port is missing, not a number or outside
// 1-65535, the host is empty, or an IPv6 host lacks its brackets.
std::optional<BrokerAddress> parse_broker_address(std::string_view text);

}  // namespace kgroups::cli
