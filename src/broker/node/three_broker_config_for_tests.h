// SPDX-License-Identifier: Apache-2.0
//
// For the broker's unit tests of a cluster in one process: the configuration of three brokers
// (--brokers 3, default replication factor 3, other settings their defaults), and the machine
// memory the tests' Broker plans its budget from. Tests only.
#pragma once

#include <cstdint>

#include "broker/config/broker_config.h"

namespace kgroups::broker::testing {

inline constexpr std::int64_t kTestMachineBytes = std::int64_t{8} << 30;

inline BrokerConfig three_broker_config() {
  BrokerConfig config;
  config.brokers = 3;
  config.default_replication_factor = 3;
  return config;
}

}  // namespace kgroups::broker::testing
