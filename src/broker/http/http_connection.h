// SPDX-License-Identifier: Apache-2.0
//
// HttpConnection: one client connection of the control endpoint. It parses requests with
// HttpRequestParser, answers each through the HttpRouter before reading the next (keep-alive
// and pipelining; "Expect: 100-continue" is answered), and closes on "Connection: close", on
// bad input (after answering 400, 413 or 431), when a request is not whole within the idle
// timeout of its first byte, when no request comes for the idle timeout, or when a response
// is not taken within it. A streaming route turns the connection into a stream: the server
// writes "200 OK" with text/event-stream and then whatever the route sends, through a queue of
// at most max_stream_queue_bytes (beyond it the stream closes), until either side leaves.
// Not thread-safe: runs on the broker's network thread.
#pragma once

#include <asio/awaitable.hpp>
#include <asio/ip/tcp.hpp>
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "broker/http/access_policy.h"
#include "broker/http/http_request_parser.h"
#include "broker/http/http_router.h"
#include "broker/runtime/byte_budget.h"
#include "broker/runtime/log_throttle.h"

namespace kgroups::broker::http {

struct HttpServerLimits {
  std::size_t max_connections = 64;
  std::size_t max_connections_per_address = 32;
  HttpParserLimits parser;
  std::chrono::milliseconds idle_timeout{60000};
  std::size_t max_stream_queue_bytes = std::size_t{1024} * 1024;  // unsent bytes of one stream
};

class HttpConnection {
 public:
  // `router` must outlive the connection. Each request passes `policy` before its route.
  // An answer is charged to `response_memory` (when given; it must outlive the connection)
  // from when it is built until it is written: one that does not fit gets 503 instead.
  // Lines about refused requests go through `refused_log` (when given; shared by the server's
  // connections), so a flood of them writes one line a second.
  HttpConnection(asio::ip::tcp::socket socket, const HttpRouter& router,
                 std::shared_ptr<const HttpAccessPolicy> policy, HttpServerLimits limits,
                 ByteBudget* response_memory = nullptr,
                 std::shared_ptr<LogThrottle> refused_log = nullptr);

  // Serves the connection until it closes (see above). Never throws.
  asio::awaitable<void> run();

  // The wire form of `response`: status line, headers (Content-Type, Content-Length,
  // Connection) and body.
  static std::string serialize(const HttpResponse& response, bool keep_alive);
  // The status line and headers of serialize(), without the body.
  static std::string serialize_head(const HttpResponse& response, bool keep_alive);

  // For the server's connection caps (http_server.h): the client's address; when the
  // connection began to wait for its current request (its start, or the end of its last
  // answer) or began to stream; whether it is writing an answer now; and evict(), which
  // closes it to make room for a new connection (run() then ends; the server logs why). Once
  // evicted, evicted().
  [[nodiscard]] const asio::ip::address& address() const { return address_; }
  [[nodiscard]] std::chrono::steady_clock::time_point waiting_since() const {
    return waiting_since_;
  }
  [[nodiscard]] bool answering() const { return answering_; }
  [[nodiscard]] bool evicted() const { return evicted_; }
  void evict();

 private:
  enum class Next { kContinue, kClose };

  asio::awaitable<Next> answer(HttpRequest request, bool keep_alive);
  asio::awaitable<void> stream(const HttpRouter::StreamHandler& handler, HttpRequest request);
  // Writes `bytes` whole within the idle timeout; false if the client did not take them.
  asio::awaitable<bool> write_all(std::string_view bytes);
  // Writes `response` (head, then its body, without copying the body) charged to
  // response_memory_ while it is written; false if the client did not take it.
  asio::awaitable<bool> write_response(const HttpResponse& response, bool keep_alive);
  // Logs a refused request, at most a line a second when refused_log_ is set.
  void log_refusal(const std::string& line);
  // Reads into buffer_ until `deadline`; false on EOF, error or timeout.
  asio::awaitable<bool> read_some(std::chrono::steady_clock::time_point deadline);

  asio::ip::tcp::socket socket_;
  const HttpRouter& router_;
  std::shared_ptr<const HttpAccessPolicy> policy_;
  HttpServerLimits limits_;
  ByteBudget* response_memory_;  // not owned; nullptr: answers are not charged
  std::shared_ptr<LogThrottle> refused_log_;
  HttpRequestParser parser_;
  std::string buffer_;  // received bytes the parser has not taken yet
  std::string peer_;
  asio::ip::address address_;
  std::chrono::steady_clock::time_point waiting_since_ = std::chrono::steady_clock::now();
  bool answering_ = false;
  bool evicted_ = false;
};

}  // namespace kgroups::broker::http
