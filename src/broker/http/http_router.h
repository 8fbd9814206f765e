// SPDX-License-Identifier: Apache-2.0
//
// HttpRouter: the table of the control endpoint's routes — method, path pattern and the
// function that answers. Patterns are literal segments and {name} segments that match any one
// non-empty segment: "/v1/groups/{id}"; a last segment {name...} matches the rest of the
// path, one or more segments, as one parameter joined by '/': "/console/{path...}".
// A path that matches no pattern gets 404; one whose pattern exists for other methods gets
// 405 with an Allow header. Each area of the API adds its routes with one function
// (add_inspection_routes, add_fault_routes, ...) so the server knows nothing of them.
// Not thread-safe: build it before the server starts; dispatch on the broker's network thread.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "broker/http/http_message.h"

namespace kgroups::broker::http {

class HttpRouter {
 public:
  using Handler = std::function<HttpResponse(const HttpRequest&)>;
  // A streaming route: writes its response headers' body to `stream` from now on.
  using StreamHandler = std::function<void(const HttpRequest&, std::shared_ptr<HttpStream>)>;

  void add(std::string_view method, std::string_view pattern, Handler handler);
  void add_stream(std::string_view method, std::string_view pattern, StreamHandler handler);

  // What the router found for one request: an answer, or a stream handler to start (then
  // `request.path_params` are set and `response` holds the stream's status and headers).
  struct Match {
    const StreamHandler* stream = nullptr;  // non-null: a streaming route
    HttpResponse response;                  // the answer when stream is null
  };
  // Finds the route of `request` (filling its path_params) and, for a plain route, calls it.
  // A handler that throws std::invalid_argument answers 400 with its message; any other
  // exception answers 500.
  Match dispatch(HttpRequest& request) const;

  // "METHOD pattern" of every route, in the order they were added.
  [[nodiscard]] std::vector<std::string> route_names() const;

 private:
  struct Route {
    std::string method;
    std::string pattern;                // as added
    std::vector<std::string> segments;  // "{}" for a parameter, "{...}" for the rest
    Handler handler;
    StreamHandler stream;
  };
  static std::vector<std::string> split_pattern(std::string_view pattern);
  static bool matches(const Route& route, std::string_view path, std::vector<std::string>& params);

  std::vector<Route> routes_;
};

}  // namespace kgroups::broker::http
