// SPDX-License-Identifier: Apache-2.0
#include "broker/node/broker_metrics.h"

namespace kgroups::broker {

void BrokerMetrics::count_error(protocol::ApiKey key, protocol::ErrorCode error) {
  if (error == protocol::ErrorCode::kNone) return;
  ++errors_[{static_cast<std::int16_t>(key), static_cast<std::int16_t>(error)}];
}

}  // namespace kgroups::broker
