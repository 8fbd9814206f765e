// SPDX-License-Identifier: Apache-2.0
//
// build_http_routes: every route of kgroupsd's control endpoint (docs/HTTP-API.md), added
// area by area (inspection, metrics, clock, ...), so kgroupsd and tests build the same table.
// Not thread-safe: build the router before the server starts.
#pragma once

#include <asio/any_io_executor.hpp>

#include "broker/http/http_router.h"
#include "broker/node/broker.h"

namespace kgroups::broker::http {

// Adds every area's routes to `router`; `broker` must outlive it. `executor` is the broker's
// io_context's (the event streams' keep-alive timers run on it).
void build_http_routes(HttpRouter& router, Broker& broker, const asio::any_io_executor& executor);

}  // namespace kgroups::broker::http
