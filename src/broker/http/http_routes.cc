// SPDX-License-Identifier: Apache-2.0
#include "broker/http/http_routes.h"

#include "broker/http/clock_routes.h"
#include "broker/http/fault_routes.h"
#include "broker/http/inspection_routes.h"
#include "broker/http/metrics_routes.h"

namespace kgroups::broker::http {

void build_http_routes(HttpRouter& router, Broker& broker) {
  add_inspection_routes(router, broker);
  add_metrics_routes(router, broker);
  add_clock_routes(router, broker);
  add_fault_routes(router, broker);
}

}  // namespace kgroups::broker::http
