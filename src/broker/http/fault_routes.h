// SPDX-License-Identifier: Apache-2.0
//
// The control endpoint's fault routes (docs/HTTP-API.md, "Faults"): POST /v1/faults arms a
// fault on the broker's FaultInjector, GET /v1/faults lists the armed faults, DELETE
// /v1/faults/{id} and DELETE /v1/faults disarm one or all.
// Not thread-safe: the routes run on the broker's network thread.
#pragma once

#include "broker/http/http_router.h"
#include "broker/node/broker.h"

namespace kgroups::broker::http {

// Adds the fault routes to `router`; `broker` must outlive it.
void add_fault_routes(HttpRouter& router, Broker& broker);

}  // namespace kgroups::broker::http
