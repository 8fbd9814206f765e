// SPDX-License-Identifier: Apache-2.0
//
// TcpServer: binds the listening socket and accepts connections, serving each with a
// Connection coroutine on the same io_context. Binding happens in the constructor, so once it
// returns the address is known (port 0 resolves to the port the system picked) and clients
// may connect; they are accepted once the io_context runs.
// Not thread-safe: construct, start and stop it on the thread that runs the io_context.
#pragma once

#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <cstdint>
#include <string>

#include "broker/broker.h"

namespace kgroups::broker {

class TcpServer {
 public:
  // Binds host:port (a numeric IPv4 or IPv6 address, or "localhost") and listens. Throws
  // std::system_error saying which address failed if it cannot. `io` and `broker` must
  // outlive the server.
  TcpServer(asio::io_context& io, Broker& broker, const std::string& host, std::uint16_t port);

  // Starts accepting connections (on the io_context's thread, once it runs).
  void start();
  // Stops accepting; open connections go on until the io_context stops.
  void stop();

  // The bound address, e.g. "127.0.0.1" and 40123.
  [[nodiscard]] std::string host() const;
  [[nodiscard]] std::uint16_t port() const;

 private:
  asio::awaitable<void> accept_loop();

  asio::io_context& io_;
  Broker& broker_;
  asio::ip::tcp::acceptor acceptor_;
};

}  // namespace kgroups::broker
