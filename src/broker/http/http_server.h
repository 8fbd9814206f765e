// SPDX-License-Identifier: Apache-2.0
//
// HttpServer: kgroupsd's control and inspection endpoint (--http HOST:PORT, docs/HTTP-API.md).
// It listens beside the Kafka listener on the broker's own io_context, so its routes read and
// change broker state between two Kafka requests without locks, and serves each connection
// with an HttpConnection coroutine. Binding happens in the constructor (port 0 resolves to
// the port the system picked). Connections beyond limits.max_connections are answered 503
// and closed; requests that HttpAccessPolicy refuses (foreign Host or Origin, a POST that is
// not JSON) get its 403 or 415.
// Not thread-safe: construct, start and stop it on the thread that runs the io_context.
#pragma once

#include <asio/awaitable.hpp>
#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <cstdint>
#include <memory>
#include <string>
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
  HttpServer(asio::io_context& io, const HttpRouter& router, HttpServerLimits limits,
             const std::string& host, std::uint16_t port,
             const std::vector<std::string>& allowed_hosts = {});

  // Starts accepting connections (once the io_context runs).
  void start();
  // Stops accepting; open connections go on until the io_context stops.
  void stop();

  [[nodiscard]] std::string host() const;
  [[nodiscard]] std::uint16_t port() const;
  // Whether it listens on a loopback address only (not reachable from other machines).
  [[nodiscard]] bool loopback() const;
  // Connections open now.
  [[nodiscard]] std::size_t connections() const { return *open_; }

 private:
  asio::awaitable<void> accept_loop();

  asio::io_context& io_;
  const HttpRouter& router_;
  HttpServerLimits limits_;
  std::shared_ptr<const HttpAccessPolicy> policy_;  // shared with the connections
  asio::ip::tcp::acceptor acceptor_;
  // Shared with the connections' coroutines, which may end after the server.
  std::shared_ptr<std::size_t> open_ = std::make_shared<std::size_t>(0);
};

}  // namespace kgroups::broker::http
