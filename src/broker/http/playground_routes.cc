// SPDX-License-Identifier: Apache-2.0
#include "broker/http/playground_routes.h"

#include <charconv>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "broker/playground/playground.h"

namespace kgroups::broker::http {
namespace {

using Json = nlohmann::ordered_json;
using playground::Playground;
using playground::PlaygroundRefusal;
using playground::SimulatedConsumer;
using playground::SimulatedProducer;

std::string_view state_name(SimulatedConsumer::State state) {
  switch (state) {
    case SimulatedConsumer::State::kJoining:
    case SimulatedConsumer::State::kSyncing:
      return "joining";
    case SimulatedConsumer::State::kStable:
      return "stable";
    case SimulatedConsumer::State::kStopped:
      return "stopped";
  }
  return "stopped";
}

Json consumer_json(const SimulatedConsumer& consumer) {
  Json out = {
      {"id", consumer.id()},
      {"group", consumer.settings().group},
      {"topic", consumer.settings().topic},
      {"assignor", consumer.settings().assignor->name()},
      {"protocol",
       consumer.protocol() == RebalanceProtocol::kCooperative ? "cooperative" : "eager"},
      {"member_id", consumer.member_id().empty() ? Json(nullptr) : Json(consumer.member_id())},
      {"state", state_name(consumer.state())},
      {"assignment", consumer.assignment()},
      {"consumed", consumer.consumed()},
      {"replayed", consumer.replayed()},
      {"session_timeout_ms", consumer.settings().session_timeout_ms}};
  if (!consumer.error().empty()) out["error"] = consumer.error();
  return out;
}

Json producer_json(const SimulatedProducer& producer) {
  return {{"id", producer.id()},
          {"topic", producer.topic()},
          {"rate", producer.rate()},
          {"produced", producer.produced()}};
}

Json playground_json(const Playground& playground) {
  Json consumers = Json::array();
  for (const auto& consumer : playground.consumers()) consumers.push_back(consumer_json(*consumer));
  Json producers = Json::array();
  for (const auto& producer : playground.producers()) producers.push_back(producer_json(*producer));
  return {{"consumers", std::move(consumers)}, {"producers", std::move(producers)}};
}

// The body as a JSON object ({} when empty); throws std::invalid_argument (400) otherwise, or
// when it has a field other than `allowed`.
Json body_object(const std::string& body, std::initializer_list<std::string_view> allowed,
                 std::string_view example) {
  if (body.empty()) return Json::object();
  Json parsed = Json::parse(body, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    throw std::invalid_argument("the body must be a JSON object such as " + std::string(example));
  }
  for (const auto& [key, value] : parsed.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      throw std::invalid_argument("unknown field \"" + key + "\"; the fields are " +
                                  std::string(example));
    }
  }
  return parsed;
}

void read_string(const Json& body, const char* field, std::string& out) {
  if (!body.contains(field)) return;
  if (!body[field].is_string()) {
    throw std::invalid_argument(std::string(field) + " must be a string");
  }
  out = body[field].get<std::string>();
}

void read_int(const Json& body, const char* field, std::int32_t& out, const std::string& range) {
  if (!body.contains(field)) return;
  const Json& value = body[field];
  const std::string expected = std::string(field) + " must be a whole number " + range;
  if (!value.is_number_integer()) throw std::invalid_argument(expected);
  if (value.is_number_unsigned()
          ? value.get<std::uint64_t>() >
                static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max())
          : (value.get<std::int64_t>() < std::numeric_limits<std::int32_t>::min() ||
             value.get<std::int64_t>() > std::numeric_limits<std::int32_t>::max())) {
    throw std::invalid_argument(expected);
  }
  out = value.get<std::int32_t>();
}

playground::ConsumerRequest consumer_request(const std::string& body) {
  const Json parsed =
      body_object(body, {"group", "topic", "assignor", "session_timeout_ms"},
                  R"({"group": "playground", "topic": "playground", "assignor": "range", )"
                  R"("session_timeout_ms": 10000})");
  playground::ConsumerRequest request;
  read_string(parsed, "group", request.group);
  read_string(parsed, "topic", request.topic);
  read_string(parsed, "assignor", request.assignor);
  read_int(parsed, "session_timeout_ms", request.session_timeout_ms,
           "of milliseconds within the broker's session timeout bounds");
  return request;
}

playground::ProducerRequest producer_request(const std::string& body) {
  const Json parsed =
      body_object(body, {"topic", "rate"}, R"({"topic": "playground", "rate": 10})");
  playground::ProducerRequest request;
  read_string(parsed, "topic", request.topic);
  read_int(parsed, "rate", request.rate,
           "of records per second from " + std::to_string(Playground::kMinRate) + " to " +
               std::to_string(Playground::kMaxRate));
  return request;
}

// The {id} path parameter; throws std::invalid_argument (400) if it is not a number.
int id_param(const HttpRequest& request, std::string_view what) {
  const std::string& text = request.path_params[0];
  int id = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (text.empty() || error != std::errc{} || end != text.data() + text.size()) {
    throw std::invalid_argument(std::string(what) + " ids are whole numbers, got \"" + text +
                                "\"; GET /v1/playground lists them");
  }
  return id;
}

bool crash_param(const HttpRequest& request) {
  const std::string crash = request.query_param("crash", "false");
  if (crash == "true") return true;
  if (crash == "false") return false;
  throw std::invalid_argument("crash must be true or false, got \"" + crash + "\"");
}

// Answers with the playground's refusal as a JSON error.
template <class Action>
HttpResponse answer(Action&& action) {
  try {
    return action();
  } catch (const PlaygroundRefusal& refusal) {
    return HttpResponse::error(refusal.status(), refusal.what());
  }
}

}  // namespace

void add_playground_routes(HttpRouter& router, Broker& broker,
                           const asio::any_io_executor& executor,
                           const playground::PlaygroundTiming& timing) {
  auto playground = std::make_shared<Playground>(broker, executor, timing);
  router.add("GET", "/v1/playground", [playground](const HttpRequest&) {
    return HttpResponse::json(playground_json(*playground));
  });
  router.add("POST", "/v1/playground/consumers", [playground](const HttpRequest& request) {
    const playground::ConsumerRequest wanted = consumer_request(request.body);
    return answer(
        [&] { return HttpResponse::json(consumer_json(playground->add_consumer(wanted)), 201); });
  });
  router.add("DELETE", "/v1/playground/consumers/{id}", [playground](const HttpRequest& request) {
    const int id = id_param(request, "consumer");
    const bool crash = crash_param(request);
    return answer(
        [&] { return HttpResponse::json(consumer_json(*playground->stop_consumer(id, crash))); });
  });
  router.add("POST", "/v1/playground/producers", [playground](const HttpRequest& request) {
    const playground::ProducerRequest wanted = producer_request(request.body);
    return answer(
        [&] { return HttpResponse::json(producer_json(playground->add_producer(wanted)), 201); });
  });
  router.add("DELETE", "/v1/playground/producers/{id}", [playground](const HttpRequest& request) {
    const int id = id_param(request, "producer");
    return answer([&] {
      playground->stop_producer(id);
      return HttpResponse::json({{"id", id}, {"stopped", true}});
    });
  });
}

}  // namespace kgroups::broker::http
