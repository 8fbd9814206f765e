// SPDX-License-Identifier: Apache-2.0
//
// The HTTP API's event routes (docs/HTTP-API.md, "Events"), over the Broker's EventLog:
// - GET /v1/events: server-sent events. With ?since=ID, first the kept events after ID
//   (since=0: every kept one); then each new event as it is published. ?group=ID keeps only
//   that group's events (topic events always pass). Each event is
//   "id: N\nevent: TYPE\ndata: JSON\n\n"; a ": keep-alive\n\n" comment goes out every
//   keep_alive_interval. A stream whose send() fails (the client left, or reads too slowly)
//   is dropped at once; one that closed is dropped at its next keep-alive at the latest.
// - GET /v1/events/log: the kept events (after ?since=ID, of ?group=ID) as a JSON array.
// A ?since= that is not a non-negative integer answers 400 (the log route), or one
// "event: error" and no stream (the SSE route, whose status line is sent already).
// Not thread-safe: the routes run on the broker's thread; `executor` must be that thread's
// (the keep-alive timers run on it).
#pragma once

#include <asio/any_io_executor.hpp>
#include <chrono>

#include "broker/http/http_router.h"
#include "broker/node/broker.h"

namespace kgroups::broker::http {

struct EventRouteOptions {
  std::chrono::milliseconds keep_alive_interval{15000};
};

// Adds GET /v1/events and GET /v1/events/log to `router`. `broker` must outlive the router
// and every stream it starts.
void add_event_routes(HttpRouter& router, Broker& broker, const asio::any_io_executor& executor,
                      EventRouteOptions options = {});

}  // namespace kgroups::broker::http
