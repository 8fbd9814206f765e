// SPDX-License-Identifier: Apache-2.0
#include "broker/http/http_routes.h"

#include "broker/http/acl_routes.h"
#include "broker/http/broker_routes.h"
#include "broker/http/clock_routes.h"
#include "broker/http/console_routes.h"
#include "broker/http/event_routes.h"
#include "broker/http/fault_routes.h"
#include "broker/http/inspection_routes.h"
#include "broker/http/metrics_routes.h"
#include "broker/http/playground_routes.h"
#include "broker/http/user_routes.h"

namespace kgroups::broker::http {

void build_http_routes(HttpRouter& router, Broker& broker, const asio::any_io_executor& executor) {
  add_inspection_routes(router, broker);
  add_metrics_routes(router, broker);
  add_clock_routes(router, broker);
  add_broker_routes(router, broker);
  add_event_routes(router, broker, executor);
  add_fault_routes(router, broker);
  add_playground_routes(router, broker, executor);
  add_user_routes(router, broker);
  add_acl_routes(router, broker);
  add_console_routes(router);
}

}  // namespace kgroups::broker::http
