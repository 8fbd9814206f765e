// SPDX-License-Identifier: Apache-2.0
#include "broker/http/clock_routes.h"

#include <chrono>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace kgroups::broker::http {
namespace {

using nlohmann::json;

// The longest single advance: a year, far beyond any group timeout, and far from overflow.
constexpr std::int64_t kMaxAdvanceMs = 365LL * 24 * 3600 * 1000;

HttpResponse clock_answer(const CoordinatorService& groups) {
  HttpResponse response;
  response.body = json{{"manual", groups.manual_clock()}, {"now_ms", groups.now_ms()}}.dump();
  return response;
}

// The "ms" of an advance's body; throws std::invalid_argument (400) saying what to send.
std::int64_t advance_ms(const std::string& body) {
  const json parsed = json::parse(body, nullptr, false);
  const std::string expected =
      "send a JSON object {\"ms\": N} with N a whole number of milliseconds from 0 to " +
      std::to_string(kMaxAdvanceMs);
  if (parsed.is_discarded() || !parsed.is_object() || !parsed.contains("ms")) {
    throw std::invalid_argument(expected);
  }
  const json& ms = parsed["ms"];
  if (!ms.is_number_integer()) throw std::invalid_argument(expected);
  const std::int64_t value = ms.is_number_unsigned() && ms.get<std::uint64_t>() > kMaxAdvanceMs
                                 ? kMaxAdvanceMs + 1
                                 : ms.get<std::int64_t>();
  if (value < 0 || value > kMaxAdvanceMs) throw std::invalid_argument(expected);
  return value;
}

}  // namespace

void add_clock_routes(HttpRouter& router, Broker& broker) {
  router.add("GET", "/v1/clock",
             [&broker](const HttpRequest&) { return clock_answer(broker.groups()); });
  router.add("POST", "/v1/clock/advance", [&broker](const HttpRequest& request) {
    CoordinatorService& groups = broker.groups();
    if (!groups.manual_clock()) {
      return HttpResponse::error(
          409,
          "the coordinator clock is the real one; start kgroupsd with --manual-clock to "
          "move it by POST /v1/clock/advance");
    }
    const std::chrono::milliseconds advance(advance_ms(request.body));
    if (!groups.advance_clock(advance)) {
      return HttpResponse::error(
          400, "the manual clock is at " + std::to_string(groups.now_ms()) +
                   " ms and moves at most a century in all, " +
                   std::to_string(groups.clock_room().count()) +
                   " ms more, so that no timer overflows; nothing moved. Advance by less, or "
                   "restart kgroupsd to start the clock again at 0");
    }
    return clock_answer(groups);
  });
}

}  // namespace kgroups::broker::http
