// SPDX-License-Identifier: Apache-2.0
//
// GET /metrics: the broker's counters and state in Prometheus' text format (version 0.0.4):
// Kafka requests by API, errors by API and error code (the ones BrokerMetrics counts),
// bytes received and sent, Kafka connections, topics, partitions' end offsets, groups by
// state, and each group's lag by partition.
// Not thread-safe: the route runs on the broker's network thread.
#pragma once

#include "broker/http/http_router.h"
#include "broker/node/broker.h"

namespace kgroups::broker::http {

// Adds GET /metrics to `router`; `broker` must outlive it.
void add_metrics_routes(HttpRouter& router, Broker& broker);

}  // namespace kgroups::broker::http
