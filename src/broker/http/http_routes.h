// SPDX-License-Identifier: Apache-2.0
//
// build_http_routes: every route of kgroupsd's control endpoint (docs/HTTP-API.md), added
// area by area (inspection, metrics, clock, ...), so kgroupsd and tests build the same table.
// Not thread-safe: build the router before the server starts.
#pragma once

#include "broker/broker.h"
#include "broker/http/http_router.h"

namespace kgroups::broker::http {

// Adds every area's routes to `router`; `broker` must outlive it.
void build_http_routes(HttpRouter& router, Broker& broker);

}  // namespace kgroups::broker::http
