// SPDX-License-Identifier: Apache-2.0
//
// The cluster's routes (--brokers N): GET /v1/brokers lists every broker with its address,
// state (running, stopped, isolated), replication delay and the partitions it leads and holds,
// and the controller; POST /v1/brokers/{id}/stop, /start and /isolate are the broker faults
// (replication_controller.h says what each does), and POST /v1/brokers/{id}/replication-delay
// {"ms": N} makes its followers fetch only every N ms (0: at once). Each answers the broker
// as GET /v1/brokers lists it; 404 for an unknown id.
// Not thread-safe: the routes run on the broker's network thread.
#pragma once

#include "broker/http/http_router.h"
#include "broker/node/broker.h"

namespace kgroups::broker::http {

// Adds the routes to `router`; `broker` must outlive it.
void add_broker_routes(HttpRouter& router, Broker& broker);

}  // namespace kgroups::broker::http
