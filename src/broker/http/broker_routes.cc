// SPDX-License-Identifier: Apache-2.0
#include "broker/http/broker_routes.h"

#include <charconv>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>

namespace kgroups::broker::http {
namespace {

using nlohmann::json;

constexpr std::int64_t kMaxDelayMs = 24LL * 3600 * 1000;

// How many partitions broker `node` leads and holds a replica of.
std::pair<std::int64_t, std::int64_t> partitions_of(const Cluster& cluster, std::int32_t node) {
  std::int64_t leads = 0;
  std::int64_t holds = 0;
  for (const auto& [name, topic] : cluster.topics()) {
    for (const BatchLog& log : topic->partitions) {
      if (log.replicas().leader() == node) ++leads;
      if (log.replicas().find(node) != nullptr) ++holds;
    }
  }
  return {leads, holds};
}

json broker_json(Broker& broker, std::int32_t node) {
  const ReplicationController& replication = broker.replication();
  const Broker::NodeAddress& address = broker.node_address(node);
  const auto [leads, holds] = partitions_of(broker.cluster(), node);
  return json{{"id", node},
              {"host", address.host},
              {"port", address.port},
              {"state", broker_state_name(replication.state(node))},
              {"controller", replication.controller_id() == node},
              {"replication_delay_ms", replication.replication_delay_ms(node)},
              {"leader_partitions", leads},
              {"replica_partitions", holds}};
}

// The broker id of the path, or nullopt when it names no broker.
std::optional<std::int32_t> broker_id(const Broker& broker, const HttpRequest& request) {
  const std::string& text = request.path_params.at(0);
  std::int32_t node = -1;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), node);
  if (error != std::errc() || end != text.data() + text.size() ||
      !broker.replication().is_broker(node)) {
    return std::nullopt;
  }
  return node;
}

HttpResponse unknown_broker(const Broker& broker, const HttpRequest& request) {
  return HttpResponse::error(
      404, "no broker " + request.path_params.at(0) + ": node ids are 0 to " +
               std::to_string(broker.replication().brokers() - 1) + " (--brokers)");
}

// The "ms" of a replication-delay body; throws std::invalid_argument (400) saying what to send.
std::int64_t delay_ms(const std::string& body) {
  const json parsed = json::parse(body, nullptr, false);
  const std::string expected = "send a JSON object {\"ms\": N} with N from 0 to " +
                               std::to_string(kMaxDelayMs) + " (0: followers fetch at once)";
  if (parsed.is_discarded() || !parsed.is_object() || !parsed.contains("ms") ||
      !parsed["ms"].is_number_integer()) {
    throw std::invalid_argument(expected);
  }
  const json& ms = parsed["ms"];
  if (ms.is_number_unsigned()
          ? ms.get<std::uint64_t>() > kMaxDelayMs
          : (ms.get<std::int64_t>() < 0 || ms.get<std::int64_t>() > kMaxDelayMs)) {
    throw std::invalid_argument(expected);
  }
  return ms.get<std::int64_t>();
}

template <typename Act>
void add_action(HttpRouter& router, Broker& broker, const char* pattern, Act act) {
  router.add("POST", pattern, [&broker, act](const HttpRequest& request) {
    const std::optional<std::int32_t> node = broker_id(broker, request);
    if (!node) return unknown_broker(broker, request);
    act(broker.replication(), *node, request);
    HttpResponse response;
    response.body = broker_json(broker, *node).dump();
    return response;
  });
}

}  // namespace

void add_broker_routes(HttpRouter& router, Broker& broker) {
  router.add("GET", "/v1/brokers", [&broker](const HttpRequest&) {
    json brokers = json::array();
    for (std::int32_t node = 0; node < broker.replication().brokers(); ++node) {
      brokers.push_back(broker_json(broker, node));
    }
    HttpResponse response;
    response.body =
        json{{"controller", broker.replication().controller_id()}, {"brokers", brokers}}.dump();
    return response;
  });
  add_action(router, broker, "/v1/brokers/{id}/stop",
             [](ReplicationController& replication, std::int32_t node, const HttpRequest&) {
               (void)replication.stop(node);
             });
  add_action(router, broker, "/v1/brokers/{id}/start",
             [](ReplicationController& replication, std::int32_t node, const HttpRequest&) {
               (void)replication.start(node);
             });
  add_action(router, broker, "/v1/brokers/{id}/isolate",
             [](ReplicationController& replication, std::int32_t node, const HttpRequest&) {
               (void)replication.isolate(node);
             });
  add_action(router, broker, "/v1/brokers/{id}/replication-delay",
             [](ReplicationController& replication, std::int32_t node, const HttpRequest& request) {
               (void)replication.set_replication_delay(node, delay_ms(request.body));
             });
}

}  // namespace kgroups::broker::http
