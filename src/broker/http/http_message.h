// SPDX-License-Identifier: Apache-2.0
//
// HttpRequest and HttpResponse: one request to kgroupsd's control and inspection endpoint
// (--http) as the HTTP server hands it to a route, and the route's answer. HttpStream: the
// open response of a streaming route (server-sent events), which the route writes to for as
// long as the client stays connected. The wire format (parsing, keep-alive, limits) is the
// server's (http_server.h); routes see only these types.
// Not thread-safe: lives on the broker's network thread.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kgroups::broker::http {

struct HttpRequest {
  std::string method;  // "GET", "POST", "DELETE", ...
  std::string path;    // as sent, without the query: "/v1/groups/my%20group"
  std::string query;   // after '?', as sent (not decoded); empty when none
  std::string body;
  // The headers the server's access checks read (access_policy.h), as sent; nullopt when
  // absent.
  std::optional<std::string> host;
  std::optional<std::string> origin;
  std::optional<std::string> content_type;
  // The values of the route pattern's {name} segments, percent-decoded, in pattern order (set
  // by the router).
  std::vector<std::string> path_params;

  // The value of query parameter `name` (percent-decoded), or `fallback` when absent.
  [[nodiscard]] std::string query_param(std::string_view name,
                                        std::string_view fallback = {}) const;
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // extra headers

  // A JSON error body {"error": {"status": S, "message": M}}; `message` says what was wrong
  // and what to do.
  static HttpResponse error(int status, std::string_view message);
  // `body` as JSON text (invalid UTF-8 in its strings replaced by U+FFFD) with `status`.
  static HttpResponse json(const nlohmann::ordered_json& body, int status = 200);
};

// A response that stays open: the route sends chunks (e.g. "data: ...\n\n") until the client
// leaves. The server owns the connection; the route keeps the shared_ptr while it streams.
class HttpStream {
 public:
  virtual ~HttpStream() = default;
  // Queues `bytes` for the client. Returns false once the client has gone, or if the client
  // reads too slowly and its queue is over the server's bound (the server then closes the
  // stream): the route should drop the stream.
  virtual bool send(std::string_view bytes) = 0;
  [[nodiscard]] virtual bool closed() const = 0;
};

}  // namespace kgroups::broker::http
