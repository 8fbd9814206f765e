// SPDX-License-Identifier: Apache-2.0
//
// The control endpoint's inspection routes (docs/HTTP-API.md): GET /v1 (the endpoint list),
// GET /v1/topics, /v1/topics/{name}, /v1/groups and /v1/groups/{id}, answered as JSON from
// the broker's state at the moment of the request.
// Not thread-safe: the routes run on the broker's network thread.
#pragma once

#include "broker/http/http_router.h"
#include "broker/node/broker.h"

namespace kgroups::broker::http {

// Adds the routes to `router`; `broker` must outlive it.
void add_inspection_routes(HttpRouter& router, Broker& broker);

}  // namespace kgroups::broker::http
