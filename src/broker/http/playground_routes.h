// SPDX-License-Identifier: Apache-2.0
//
// The control endpoint's playground routes (docs/HTTP-API.md, "Playground"): GET
// /v1/playground lists the simulated consumers and producers kgroupsd runs; POST and DELETE
// /v1/playground/consumers[/{id}] and /v1/playground/producers[/{id}] start and stop them.
// The routes own the Playground: it lives as long as the router, which must be destroyed
// before the io_context of `executor` and before the broker (kgroupsd declares them so).
// Not thread-safe: the routes run on the broker's network thread.
#pragma once

#include <asio/any_io_executor.hpp>

#include "broker/http/http_router.h"
#include "broker/node/broker.h"
#include "broker/playground/playground_timing.h"

namespace kgroups::broker::http {

// Adds the playground routes to `router`; `broker` must outlive it. The simulated clients'
// timers run on `executor`, at the pace of `timing`.
void add_playground_routes(HttpRouter& router, Broker& broker,
                           const asio::any_io_executor& executor,
                           const playground::PlaygroundTiming& timing = {});

}  // namespace kgroups::broker::http
