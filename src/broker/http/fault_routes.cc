// SPDX-License-Identifier: Apache-2.0
#include "broker/http/fault_routes.h"

#include <charconv>
#include <nlohmann/json.hpp>
#include <string>

#include "broker/http/fault_json.h"

namespace kgroups::broker::http {
namespace {

using nlohmann::json;

HttpResponse json_response(int status, const json& body) {
  HttpResponse response;
  response.status = status;
  response.body = body.dump();
  return response;
}

HttpResponse arm(FaultInjector& faults, const HttpRequest& request) {
  Fault fault = fault_from_json(request.body);  // std::invalid_argument: 400
  const Fault* armed = faults.arm(std::move(fault));
  if (armed == nullptr) {
    return HttpResponse::error(
        429, "already " + std::to_string(FaultInjector::kMaxFaults) +
                 " faults armed (the most kgroupsd keeps); DELETE /v1/faults/{id} or "
                 "DELETE /v1/faults first");
  }
  return json_response(201, fault_to_json(*armed));
}

HttpResponse list(const FaultInjector& faults) {
  json listed = json::array();
  for (const Fault& fault : faults.armed()) listed.push_back(fault_to_json(fault));
  return json_response(200, json{{"faults", std::move(listed)}});
}

HttpResponse disarm_one(FaultInjector& faults, const HttpRequest& request) {
  const std::string& text = request.path_params.at(0);
  std::uint64_t id = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (error != std::errc() || end != text.data() + text.size() || !faults.disarm(id)) {
    return HttpResponse::error(404, "no fault " + text + " is armed; GET /v1/faults lists them");
  }
  return json_response(200, json{{"deleted", 1}});
}

}  // namespace

void add_fault_routes(HttpRouter& router, Broker& broker) {
  FaultInjector& faults = broker.faults();
  router.add("POST", "/v1/faults",
             [&faults](const HttpRequest& request) { return arm(faults, request); });
  router.add("GET", "/v1/faults", [&faults](const HttpRequest&) { return list(faults); });
  router.add("DELETE", "/v1/faults/{id}",
             [&faults](const HttpRequest& request) { return disarm_one(faults, request); });
  router.add("DELETE", "/v1/faults", [&faults](const HttpRequest&) {
    const std::size_t armed = faults.armed().size();
    faults.disarm_all();
    return json_response(200, json{{"deleted", armed}});
  });
}

}  // namespace kgroups::broker::http
