// SPDX-License-Identifier: Apache-2.0
//
// The coordinator clock's routes: GET /v1/clock ({"manual": bool, "now_ms": N}) and, with
// --manual-clock, POST /v1/clock/advance {"ms": N}, which moves the group coordinators' clock
// and applies every expiry that became due before answering (409 without --manual-clock).
// Not thread-safe: the routes run on the broker's network thread.
#pragma once

#include "broker/http/http_router.h"
#include "broker/node/broker.h"

namespace kgroups::broker::http {

// Adds the routes to `router`; `broker` must outlive it.
void add_clock_routes(HttpRouter& router, Broker& broker);

}  // namespace kgroups::broker::http
