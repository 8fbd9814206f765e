// SPDX-License-Identifier: Apache-2.0
//
// TcpServer: binds the listening socket and accepts connections, serving each with a
// Connection coroutine on the same io_context. Binding happens in the constructor, so once it
// returns the address is known (port 0 resolves to the port the system picked) and clients
// may connect; they are accepted once the io_context runs.
//
// It caps open connections, in total (--max-connections, lowered to the open-file limit minus
// 64 so that accept() does not run out of descriptors) and per client address
// (--max-connections-per-ip): a connection beyond either cap is closed right after accept,
// with a log line at most once a second per cap saying how many were refused meanwhile.
// Not thread-safe: construct, start and stop it on the thread that runs the io_context.
#pragma once

#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <cstdint>
#include <memory>
#include <string>

#include "broker/net/connection_counter.h"
#include "broker/node/broker.h"
#include "broker/runtime/log_throttle.h"

namespace kgroups::broker {

class TcpServer {
 public:
  // Descriptors kept free below the open-file limit, for the listener, logs and accept().
  static constexpr std::int64_t kReservedFileDescriptors = 64;

  // Binds host:port (a numeric IPv4 or IPv6 address, or "localhost") and listens. Throws
  // std::system_error saying which address failed if it cannot. `io` and `broker` must
  // outlive the server.
  TcpServer(asio::io_context& io, Broker& broker, const std::string& host, std::uint16_t port);

  // Starts accepting connections (on the io_context's thread, once it runs), and logs the
  // connection caps in force.
  void start();
  // Stops accepting; open connections go on until the io_context stops.
  void stop();

  // The bound address, e.g. "127.0.0.1" and 40123.
  [[nodiscard]] std::string host() const;
  [[nodiscard]] std::uint16_t port() const;
  // The cap on open connections in force: --max-connections, at most the open-file limit
  // minus kReservedFileDescriptors.
  [[nodiscard]] std::int64_t max_connections() const { return connections_->max_total(); }

 private:
  asio::awaitable<void> accept_loop();
  // Closes a connection a cap refused, logging it through `throttle`.
  static void refuse(asio::ip::tcp::socket& socket, LogThrottle& throttle,
                     const std::string& reason);

  asio::io_context& io_;
  Broker& broker_;
  asio::ip::tcp::acceptor acceptor_;
  // Shared with the connections' coroutines, which end with the io_context, after the server.
  std::shared_ptr<ConnectionCounter> connections_;
  LogThrottle refused_total_log_;        // connections beyond --max-connections
  LogThrottle refused_per_address_log_;  // connections beyond --max-connections-per-ip
  LogThrottle accept_failed_log_;        // accept() errors (e.g. out of descriptors)
};

}  // namespace kgroups::broker
