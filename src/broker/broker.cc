// SPDX-License-Identifier: Apache-2.0
#include "broker/broker.h"

#include <stdexcept>
#include <string>
#include <utility>

#include "protocol/error_code.h"

namespace kgroups::broker {

Broker::Broker(BrokerConfig config)
    : config_(std::move(config)),
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
