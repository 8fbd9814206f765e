// SPDX-License-Identifier: Apache-2.0
#include "broker/broker.h"

#include <stdexcept>
#include <string>
#include <utility>

#include "protocol/error_code.h"

namespace kgroups::broker {

Broker::Broker(BrokerConfig config, std::int64_t machine_bytes)
    : config_(std::move(config)),
      memory_plan_(
          resolve_memory_plan(config_, machine_bytes > 0 ? machine_bytes : machine_memory_bytes())),
      request_memory_(memory_plan_.request_bytes),
      response_memory_(memory_plan_.response_bytes),
      cluster_(config_.default_partitions, config_.auto_create_topics),
      groups_(CoordinatorConfig{
          .min_session_timeout_ms = config_.group_min_session_timeout_ms,
          .max_session_timeout_ms = config_.group_max_session_timeout_ms,
          .initial_rebalance_delay_ms = config_.initial_rebalance_delay_ms,
      }) {
  if (config_.default_partitions < 1) {
    throw std::invalid_argument("default partitions must be at least 1, got " +
                                std::to_string(config_.default_partitions));
  }
  // A request frame is received whole, so it must fit in the requests' share.
  if (memory_plan_.request_bytes < config_.max_frame_bytes) {
    config_.max_frame_bytes = static_cast<std::int32_t>(memory_plan_.request_bytes);
  }
  if (config_.max_frame_bytes < config_.max_message_bytes) {
    throw std::invalid_argument(
        "requests of " + format_bytes(config_.max_frame_bytes) +
        " (--max-frame-bytes, at most --queued-max-request-bytes) cannot hold a batch of "
        "--max-message-bytes " +
        format_bytes(config_.max_message_bytes) +
        "; raise --queued-max-request-bytes or --max-memory, or lower --max-message-bytes");
  }
  // Validate every seed first, so that an invalid one leaves no topic behind.
  Cluster check(config_.default_partitions, false);
  for (const SeedTopic& seed : config_.seed_topics) {
    const protocol::ErrorCode error = check.create_topic(seed.name, seed.partitions);
    if (error != protocol::ErrorCode::kNone) {
      throw std::invalid_argument("seed topic \"" + seed.name + ":" +
                                  std::to_string(seed.partitions) + "\" is not valid (" +
                                  std::string(protocol::error_name(error)) +
                                  "); use name:partitions with a legal topic name, each once");
    }
  }
  for (const SeedTopic& seed : config_.seed_topics) {
    (void)cluster_.create_topic(seed.name, seed.partitions);
  }
}

void Broker::set_advertised_address(std::string host, std::uint16_t port) {
  config_.advertised_host = std::move(host);
  config_.advertised_port = port;
}

}  // namespace kgroups::broker
