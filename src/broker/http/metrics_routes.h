// SPDX-License-Identifier: Apache-2.0
//
// GET /metrics: the broker's counters and state in Prometheus' text format (version 0.0.4):
// Kafka requests by API, errors by API and error code (the ones BrokerMetrics counts),
// bytes received and sent, Kafka connections, topics, partitions' end offsets, groups by
// state, and each group's lag by partition. With --brokers N (N > 1) also each broker's state,
// the controller, leader elections and ISR changes (counted from the events published after
// the route was added), and each partition's leader, replicas, ISR size, high watermark and
// log end offset; with one broker these families are left out.
// Not thread-safe: the route runs on the broker's network thread.
#pragma once

#include "broker/http/http_router.h"
#include "broker/node/broker.h"

namespace kgroups::broker::http {

// Adds GET /metrics to `router`; `broker` must outlive it.
void add_metrics_routes(HttpRouter& router, Broker& broker);

}  // namespace kgroups::broker::http
