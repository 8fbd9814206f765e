// SPDX-License-Identifier: Apache-2.0
#include "broker/http/event_routes.h"

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/redirect_error.hpp>
#include <asio/steady_timer.hpp>
#include <asio/this_coro.hpp>
#include <asio/use_awaitable.hpp>
#include <charconv>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

namespace kgroups::broker::http {
namespace {

// The value of ?since=: nullopt when absent. Throws std::invalid_argument when it is not a
// non-negative integer.
std::optional<std::uint64_t> since_param(const HttpRequest& request) {
  // Two different fallbacks tell an absent parameter from one given with that value.
  const std::string text = request.query_param("since", "absent");
  if (text == "absent" && request.query_param("since", "-") == "-") return std::nullopt;
  std::uint64_t since = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), since);
  if (text.empty() || error != std::errc{} || end != text.data() + text.size()) {
    throw std::invalid_argument("since must be an event id (a non-negative integer), got \"" +
                                text + "\"; since=0 gives every event kept");
  }
  return since;
}

// Whether the event is for a reader of group `group` ("": every group). Topic events pass.
bool passes(const Event& event, const std::string& group) {
  return group.empty() || event.group_id.empty() || event.group_id == group;
}

std::string sse_frame(const Event& event) {
  std::string frame;
  frame.reserve(event.json.size() + event.type.size() + 40);
  frame += "id: ";
  frame += std::to_string(event.id);
  frame += "\nevent: ";
  frame += event.type;
  frame += "\ndata: ";
  frame += event.json;
  frame += "\n\n";
  return frame;
}

// One client's open /v1/events stream.
struct EventStream {
  std::shared_ptr<HttpStream> stream;
  std::string group;  // "": every group
  EventLog::SubscriptionId subscription = 0;
  bool dropped = false;  // unsubscribed: the client left or fell behind
};

// Sends a keep-alive comment every `interval` until the stream is dropped or closes.
asio::awaitable<void> keep_alive(std::shared_ptr<EventStream> state, EventLog& log,
                                 std::chrono::milliseconds interval) {
  asio::steady_timer timer(co_await asio::this_coro::executor);
  for (;;) {
    timer.expires_after(interval);
    std::error_code error;
    co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, error));
    if (state->dropped) co_return;
    if (state->stream->closed() || !state->stream->send(": keep-alive\n\n")) {
      state->dropped = true;
      log.unsubscribe(state->subscription);
      co_return;
    }
  }
}

void start_stream(const HttpRequest& request, std::shared_ptr<HttpStream> stream, EventLog& log,
                  const asio::any_io_executor& executor, std::chrono::milliseconds interval) {
  auto state = std::make_shared<EventStream>();
  state->stream = std::move(stream);
  state->group = request.query_param("group");
  std::optional<std::uint64_t> since;
  try {
    since = since_param(request);
  } catch (const std::invalid_argument& e) {
    const nlohmann::json error = {{"error", {{"status", 400}, {"message", e.what()}}}};
    state->stream->send("event: error\ndata: " + error.dump() + "\n\n");
    return;
  }
  if (since) {
    for (const Event* event : log.since(*since)) {
      if (passes(*event, state->group) && !state->stream->send(sse_frame(*event))) return;
    }
  }
  state->subscription = log.subscribe([state](const Event& event) {
    if (state->dropped) return false;
    if (!passes(event, state->group)) return true;
    if (!state->stream->send(sse_frame(event))) {
      state->dropped = true;
      return false;
    }
    return true;
  });
  asio::co_spawn(executor, keep_alive(state, log, interval), asio::detached);
}

HttpResponse event_log_json(const HttpRequest& request, const EventLog& log) {
  const std::uint64_t since = since_param(request).value_or(0);
  const std::string group = request.query_param("group");
  HttpResponse response;
  response.body = "[";
  for (const Event* event : log.since(since)) {
    if (!passes(*event, group)) continue;
    if (response.body.size() > 1) response.body += ",";
    response.body += event->json;
  }
  response.body += "]";
  return response;
}

}  // namespace

void add_event_routes(HttpRouter& router, Broker& broker, const asio::any_io_executor& executor,
                      EventRouteOptions options) {
  EventLog& log = broker.events();
  router.add_stream("GET", "/v1/events",
                    [&log, executor, interval = options.keep_alive_interval](
                        const HttpRequest& request, std::shared_ptr<HttpStream> stream) {
                      start_stream(request, std::move(stream), log, executor, interval);
                    });
  router.add("GET", "/v1/events/log",
             [&log](const HttpRequest& request) { return event_log_json(request, log); });
}

}  // namespace kgroups::broker::http
