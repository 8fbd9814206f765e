// SPDX-License-Identifier: Apache-2.0
#include "broker/config/listener_config.h"

#include <array>
#include <charconv>
#include <utility>

namespace kgroups::broker {
namespace {

constexpr std::array<std::pair<SecurityProtocol, std::string_view>, 4> kProtocolNames{{
    {SecurityProtocol::kPlaintext, "PLAINTEXT"},
    {SecurityProtocol::kSsl, "SSL"},
    {SecurityProtocol::kSaslPlaintext, "SASL_PLAINTEXT"},
    {SecurityProtocol::kSaslSsl, "SASL_SSL"},
}};

constexpr std::string_view kExample = "PLAINTEXT://127.0.0.1:9092,SASL_SSL://127.0.0.1:9094";

std::string quoted(std::string_view text) { return "\"" + std::string(text) + "\""; }

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t begin = 0;
  for (;;) {
    const std::size_t end = text.find(separator, begin);
    parts.push_back(text.substr(begin, end == std::string_view::npos ? end : end - begin));
    if (end == std::string_view::npos) return parts;
    begin = end + 1;
  }
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

// One "PROTOCOL://HOST:PORT"; the error says what was wrong with `entry`.
std::optional<std::string> parse_entry(std::string_view entry, std::string_view flag,
                                       ListenerAddress& out) {
  const std::string prefix = std::string(flag) + ": " + quoted(entry) + " ";
  const std::size_t scheme_end = entry.find("://");
  if (scheme_end == std::string_view::npos) {
    return prefix + "is not PROTOCOL://HOST:PORT; write e.g. " + std::string(kExample);
  }
  const std::string_view name = entry.substr(0, scheme_end);
  const std::optional<SecurityProtocol> protocol = security_protocol_from_name(name);
  if (!protocol) {
    return prefix + "names the listener " + quoted(name) +
           ", which is not one of PLAINTEXT, SSL, SASL_PLAINTEXT and SASL_SSL (kgroupsd names "
           "each listener by its security protocol)";
  }
  std::string_view address = entry.substr(scheme_end + 3);
  const std::size_t colon = address.rfind(':');
  if (colon == std::string_view::npos) return prefix + "has no :PORT after its host";
  std::string_view host = address.substr(0, colon);
  const std::string_view port_text = address.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);  // [::1]
  } else if (host.find(':') != std::string_view::npos) {
    return prefix + "has an IPv6 host without brackets; write e.g. SSL://[::1]:9093";
  }
  unsigned port = 0;
  const auto [end, error] =
      std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (port_text.empty() || error != std::errc() || end != port_text.data() + port_text.size() ||
      port > 65535) {
    return prefix + "has the port " + quoted(port_text) + ", not a number from 0 to 65535";
  }
  out.protocol = *protocol;
  out.host = host.empty() ? std::string("127.0.0.1") : std::string(host);
  out.port = static_cast<std::uint16_t>(port);
  return std::nullopt;
}

std::optional<std::string> parse_broker_list(std::string_view text, std::string_view flag,
                                             std::vector<ListenerAddress>& out) {
  for (const std::string_view raw : split(text, ',')) {
    const std::string_view entry = trimmed(raw);
    if (entry.empty()) {
      return std::string(flag) + ": " + quoted(text) +
             " has an empty entry; separate listeners with one ',' and brokers with ';'";
    }
    ListenerAddress listener;
    if (auto error = parse_entry(entry, flag, listener)) return error;
    for (const ListenerAddress& earlier : out) {
      if (earlier.protocol == listener.protocol) {
        return std::string(flag) + ": " + quoted(text) + " has two " +
               std::string(security_protocol_name(listener.protocol)) +
               " listeners; a broker has at most one listener of each protocol";
      }
    }
    out.push_back(std::move(listener));
  }
  return std::nullopt;
}

// One list for every broker: broker n takes each nonzero port plus n.
std::optional<std::string> spread_over_brokers(std::string_view text, std::string_view flag,
                                               std::int32_t brokers, BrokerListeners& listeners) {
  const std::vector<ListenerAddress> first = listeners.front();
  for (const ListenerAddress& listener : first) {
    if (listener.port != 0 && listener.port + brokers - 1 > 65535) {
      return std::string(flag) + ": ports " + std::to_string(listener.port) +
             " and up have no room for " + std::to_string(brokers) + " brokers";
    }
  }
  for (std::int32_t node = 1; node < brokers; ++node) {
    std::vector<ListenerAddress> shifted = first;
    for (ListenerAddress& listener : shifted) {
      if (listener.port != 0) listener.port = static_cast<std::uint16_t>(listener.port + node);
    }
    listeners.push_back(std::move(shifted));
  }
  for (std::size_t a = 0; a < first.size(); ++a) {
    for (std::size_t b = 0; b < first.size(); ++b) {
      const int gap = first[b].port - first[a].port;
      if (a != b && first[a].port != 0 && gap > 0 && gap < brokers &&
          first[a].host == first[b].host) {
        return std::string(flag) + ": " + quoted(text) + " for --brokers " +
               std::to_string(brokers) + " would give broker " + std::to_string(gap) +
               " the port " + std::to_string(first[b].port) + " of broker 0's " +
               std::string(security_protocol_name(first[b].protocol)) +
               " listener; give each broker its own list, separated by ';' (e.g. "
               "PLAINTEXT://:9092,SSL://:9192;PLAINTEXT://:9093,SSL://:9193), or port 0";
      }
    }
  }
  return std::nullopt;
}

}  // namespace

std::string_view security_protocol_name(SecurityProtocol protocol) {
  for (const auto& [value, name] : kProtocolNames) {
    if (value == protocol) return name;
  }
  return "PLAINTEXT";
}

std::optional<SecurityProtocol> security_protocol_from_name(std::string_view name) {
  for (const auto& [value, known] : kProtocolNames) {
    if (known == name) return value;
  }
  return std::nullopt;
}

std::string ListenerAddress::text() const {
  const bool ipv6 = host.find(':') != std::string::npos;
  return std::string(security_protocol_name(protocol)) + "://" + (ipv6 ? "[" : "") + host +
         (ipv6 ? "]" : "") + ":" + std::to_string(port);
}

ListenersParse parse_listeners(std::string_view text, std::int32_t brokers, std::string_view flag) {
  ListenersParse parse;
  for (const std::string_view broker_text : split(text, ';')) {
    std::vector<ListenerAddress> list;
    if (auto error = parse_broker_list(trimmed(broker_text), flag, list)) {
      parse.error = std::move(error);
      return parse;
    }
    parse.listeners.push_back(std::move(list));
  }
  if (parse.listeners.size() == 1 && brokers > 1) {
    parse.error = spread_over_brokers(text, flag, brokers, parse.listeners);
  } else if (std::cmp_not_equal(parse.listeners.size(), brokers)) {
    parse.error = std::string(flag) + ": " + quoted(text) + " gives " +
                  std::to_string(parse.listeners.size()) + " lists of listeners for --brokers " +
                  std::to_string(brokers) +
                  ": give one list for every broker, or one per broker separated by ';'";
  } else {
    for (std::size_t node = 1; node < parse.listeners.size() && !parse.error; ++node) {
      const auto& mine = parse.listeners[node];
      const auto& first = parse.listeners.front();
      bool same = mine.size() == first.size();
      for (std::size_t i = 0; same && i < mine.size(); ++i) {
        same = mine[i].protocol == first[i].protocol;
      }
      if (!same) {
        parse.error = std::string(flag) + ": broker " + std::to_string(node) +
                      "'s listeners do not have broker 0's protocols in its order; every "
                      "broker needs the same listeners (a client reaches every broker through "
                      "the listener it came in on)";
      }
    }
  }
  if (parse.error) parse.listeners.clear();
  return parse;
}

}  // namespace kgroups::broker
