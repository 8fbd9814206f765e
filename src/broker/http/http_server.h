// SPDX-License-Identifier: Apache-2.0
//
// HttpServer: kgroupsd's control and inspection endpoint (--http HOST:PORT, docs/HTTP-API.md).
// It listens beside the Kafka listener on the broker's own io_context, so its routes read and
// change broker state between two Kafka requests without locks, and serves each connection
// with an HttpConnection coroutine. Binding happens in the constructor (port 0 resolves to
// the port the system picked). At limits.max_connections (or max_connections_per_address
// from one address) a new connection makes room: the connection that has waited longest for
// a request, or streamed longest, is closed (among that address's, at the per-address cap),
// so slow or idle clients cannot lock the console out; only when every one is writing an
// answer is the new one answered 503 and closed. Requests that HttpAccessPolicy refuses
// (foreign Host or Origin, a POST that is not JSON) get its 403 or 415.
// Not thread-safe: construct, start and stop it on the thread that runs the io_context.
#pragma once

#include <asio/awaitable.hpp>
#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "broker/http/access_policy.h"
#include "broker/http/http_connection.h"
#include "broker/http/http_router.h"

namespace kgroups::broker::http {

class HttpServer {
 public:
  // Binds host:port (a numeric IPv4 or IPv6 address, or "localhost") and listens. Throws
  // std::system_error saying which address failed if it cannot. `io` and `router` must
  // outlive the server and its connections. Every request passes HttpAccessPolicy first:
  // Host names a loopback name, `host`, or one of `allowed_hosts` (--http-allow-host).
  // Answers are charged to `response_memory` (when given) until written (HttpConnection).
  HttpServer(asio::io_context& io, const HttpRouter& router, HttpServerLimits limits,
             const std::string& host, std::uint16_t port,
             const std::vector<std::string>& allowed_hosts = {},
             ByteBudget* response_memory = nullptr);

  // Starts accepting connections (once the io_context runs).
  void start();
  // Stops accepting; open connections go on until the io_context stops.
  void stop();

  [[nodiscard]] std::string host() const;
  [[nodiscard]] std::uint16_t port() const;
  // Whether it listens on a loopback address only (not reachable from other machines).
  [[nodiscard]] bool loopback() const;
  // Connections open now (those closed to make room included until they have ended).
  [[nodiscard]] std::size_t connections() const { return open_->size(); }

 private:
  asio::awaitable<void> accept_loop();
  // Whether a connection from `address` may be served now, after making room if needed.
  bool admit(const asio::ip::address& address);
  // Evicts the connection not writing an answer that has waited longest, among those from
  // `address` when given; false if there is none.
  bool make_room(const asio::ip::address* address, std::string_view reason);

  asio::io_context& io_;
  const HttpRouter& router_;
  HttpServerLimits limits_;
  std::shared_ptr<const HttpAccessPolicy> policy_;  // shared with the connections
  ByteBudget* response_memory_;                     // not owned; may be nullptr
  // One line a second at most about refused requests (the connections') and about
  // connections closed to make room.
  std::shared_ptr<LogThrottle> refused_log_ = std::make_shared<LogThrottle>();
  LogThrottle evicted_log_;
  asio::ip::tcp::acceptor acceptor_;
  // The connections being served; shared with their coroutines, which may end after the
  // server (each removes itself).
  std::shared_ptr<std::list<HttpConnection*>> open_ =
      std::make_shared<std::list<HttpConnection*>>();
};

}  // namespace kgroups::broker::http
