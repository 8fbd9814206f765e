// SPDX-License-Identifier: Apache-2.0
//
// BrokerMetrics: the counters GET /metrics reports that no other part of the broker keeps —
// Kafka requests by API, errors by API and error code, bytes received and sent, and
// connections. Everything else /metrics shows (groups, lag, offsets) is read from the state
// itself when asked. Counting a request is one array increment (no allocation on the hot
// path); an error is a map lookup, on error paths only.
//
// What counts as an error: the error codes the handlers report through
// RequestContext::count_error — Produce and Fetch per partition (and Fetch's top-level code),
// and the group APIs (FindCoordinator, JoinGroup, SyncGroup, Heartbeat, LeaveGroup,
// OffsetCommit and OffsetFetch per partition and per group, DescribeGroups, ListGroups,
// DeleteGroups, ConsumerGroupHeartbeat). Other APIs' errors are not counted.
// Not thread-safe: lives on the broker's network thread.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>

#include "protocol/api_key.h"
#include "protocol/error_code.h"

namespace kgroups::broker {

class BrokerMetrics {
 public:
  // API keys 0..kApiKeys-1 are counted one by one; higher keys share the last slot.
  static constexpr std::size_t kApiKeys = 128;

  void count_request(protocol::ApiKey key) { ++requests_[slot(key)]; }
  // Counts one response (or partition) that answered `error`; NONE is not counted.
  void count_error(protocol::ApiKey key, protocol::ErrorCode error);
  void add_bytes_received(std::size_t bytes) { bytes_received_ += bytes; }
  void add_bytes_sent(std::size_t bytes) { bytes_sent_ += bytes; }
  void connection_opened() {
    ++connections_;
    ++connections_accepted_;
  }
  void connection_closed() { --connections_; }

  [[nodiscard]] std::uint64_t requests(protocol::ApiKey key) const { return requests_[slot(key)]; }
  // Errors by (API key, error code).
  [[nodiscard]] const std::map<std::pair<std::int16_t, std::int16_t>, std::uint64_t>& errors()
      const {
    return errors_;
  }
  [[nodiscard]] std::uint64_t bytes_received() const { return bytes_received_; }
  [[nodiscard]] std::uint64_t bytes_sent() const { return bytes_sent_; }
  [[nodiscard]] std::int64_t connections() const { return connections_; }
  [[nodiscard]] std::uint64_t connections_accepted() const { return connections_accepted_; }

 private:
  static std::size_t slot(protocol::ApiKey key) {
    const auto value = static_cast<std::int16_t>(key);
    return value < 0 ? kApiKeys - 1 : std::min<std::size_t>(value, kApiKeys - 1);
  }

  std::array<std::uint64_t, kApiKeys> requests_{};
  std::map<std::pair<std::int16_t, std::int16_t>, std::uint64_t> errors_;
  std::uint64_t bytes_received_ = 0;
  std::uint64_t bytes_sent_ = 0;
  std::int64_t connections_ = 0;  // open Kafka connections
  std::uint64_t connections_accepted_ = 0;
};

}  // namespace kgroups::broker
