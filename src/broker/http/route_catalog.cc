// SPDX-License-Identifier: Apache-2.0
#include "broker/http/route_catalog.h"

#include <array>
#include <string>

namespace kgroups::broker::http {
namespace {

// Every route of the endpoint, in the order GET /v1 and docs/HTTP-API.md list them.
constexpr std::array kRoutes = std::to_array<RouteDescription>({
    {"GET", "/v1", "the API's version and its endpoints", "the API's version and its endpoints"},
    {"GET", "/v1/topics", "every topic with its partitions", "every topic with its partitions"},
    {"GET", "/v1/topics/{name}", "one topic, with the configs set on it",
     "one topic (404 if it does not exist)"},
    {"GET", "/v1/groups", "every group (classic, consumer, share), summary",
     "every group (classic, consumer, share), summary"},
    {"GET", "/v1/groups/{id}", "one group in full, with offsets and lag",
     "one group in full, with offsets and lag (404 if unknown)"},
    {"GET", "/v1/events", "server-sent events: what happens to groups and topics",
     "server-sent events: what happens to groups and topics"},
    {"GET", "/v1/events/log", "the kept events as one JSON array",
     "the kept events as one JSON array (`?since=ID`, `?group=ID`)"},
    {"GET", "/v1/faults", "the faults armed now", "the faults armed now"},
    {"POST", "/v1/faults", "arm a fault", "arm a fault; answers 201 with it (and its id)"},
    {"DELETE", "/v1/faults/{id}", "disarm one fault", "disarm one fault"},
    {"DELETE", "/v1/faults", "disarm every fault", "disarm every fault"},
    {"GET", "/v1/brokers", "the brokers of the cluster and the controller",
     "the brokers (`--brokers N`): address, state, replication delay, partitions led and held"},
    {"POST", "/v1/brokers/{id}/stop", "stop a broker: its connections close, leaders move",
     "stop a broker: its listener refuses, its connections close, its partitions get new leaders"},
    {"POST", "/v1/brokers/{id}/start", "start a stopped or isolated broker again",
     "start a stopped or isolated broker again; its replicas catch up and rejoin the ISR"},
    {"POST", "/v1/brokers/{id}/isolate", "cut a broker from replication, alive to clients",
     "cut a broker from the controller and replication; it still answers clients and believes "
     "it leads what it led"},
    {"POST", "/v1/brokers/{id}/replication-delay", "make a broker's followers fetch late",
     "`{\"ms\": N}`: its followers fetch every N ms (0: at once); they leave the ISR beyond "
     "`--replica-lag-time-max-ms`"},
    {"GET", "/v1/clock", "the coordinator clock",
     R"(the coordinator clock: `{"manual": true, "now_ms": 0}`)"},
    {"POST", "/v1/clock/advance", "with --manual-clock: move group timers forward",
     "with `--manual-clock`: `{\"ms\": 45000}` moves group timers forward and applies what is due; "
     "409 without `--manual-clock`"},
    {"GET", "/v1/playground", "the simulated consumers and producers kgroupsd runs",
     "the simulated consumers and producers kgroupsd runs ([Playground](#playground))"},
    {"POST", "/v1/playground/consumers", "start a simulated consumer in a group",
     "start a simulated consumer in a group; 201 with it"},
    {"DELETE", "/v1/playground/consumers/{id}", "stop one (LeaveGroup; ?crash=true: no leave)",
     "stop it: LeaveGroup, or `?crash=true` without leaving"},
    {"POST", "/v1/playground/producers", "start a simulated producer at a rate",
     "start a simulated producer at a rate; 201 with it"},
    {"DELETE", "/v1/playground/producers/{id}", "stop one simulated producer", "stop it"},
    {"GET", "/v1/users", "the SASL users and their SCRAM mechanisms",
     "the SASL users: each one's SCRAM mechanisms and iteration counts, never a secret "
     "([Users and ACLs](#users-and-acls))"},
    {"PUT", "/v1/users/{name}", "set a user's password for SCRAM (and PLAIN)",
     R"(`{"password": "...", "mechanisms": [...], "iterations": 4096}`: set a user's password; )"
     "201 for a new user"},
    {"DELETE", "/v1/users/{name}", "delete a user and its credentials",
     "delete a user's credentials (404 if unknown)"},
    {"GET", "/v1/acls", "every ACL", "every ACL, with Kafka's names"},
    {"POST", "/v1/acls", "create one ACL or a list of them",
     "create one ACL or a list of them, all or none; 201 with them"},
    {"DELETE", "/v1/acls", "delete the ACLs a filter matches",
     "delete the ACLs the filter in the body matches (`{}`: all); answers what it deleted"},
    {"GET", "/metrics", "Prometheus text format", "Prometheus text format"},
    {"GET", "/", "the web console (console/index.html)", "the web console (see \"Console\" below)"},
    {"GET", "/console/{path...}", "the web console's files",
     "one of the console's files (`/console/js/main.js`); 404 for any other"},
});

// "/console/{path...}" as clients write it: "/console/{path}".
std::string shown_pattern(std::string_view pattern) {
  std::string shown(pattern);
  if (const auto rest = shown.find("...}"); rest != std::string::npos) shown.erase(rest, 3);
  return shown;
}

}  // namespace

std::span<const RouteDescription> route_catalog() { return kRoutes; }

std::string shown_route(const RouteDescription& route) {
  return std::string(route.method) + " " + shown_pattern(route.pattern);
}

nlohmann::json route_catalog_json() {
  nlohmann::json list = nlohmann::json::array();
  for (const RouteDescription& route : kRoutes) {
    list.push_back({{"route", shown_route(route)}, {"what", route.summary}});
  }
  return {{"version", "v1"}, {"endpoints", std::move(list)}};
}

std::string route_catalog_markdown() {
  std::string out =
      "| Method and path | What it does |\n"
      "|---|---|\n";
  for (const RouteDescription& route : kRoutes) {
    out += "| `" + shown_route(route) + "` | ";
    out += route.documentation;
    out += " |\n";
  }
  return out;
}

}  // namespace kgroups::broker::http
