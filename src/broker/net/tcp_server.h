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
// with a log line at most once a second per cap saying how many were refused meanwhile. On an
// SSL or SASL listener a connection is also refused while --max-unauthenticated-connections
// connections of the process are still in their TLS handshake or SASL exchange.
// Not thread-safe: construct, start and stop it on the thread that runs the io_context.
#pragma once

#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_set>

#include "broker/net/connection.h"
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
  // `listener` says which broker of the cluster it listens for (--brokers), which of its
  // listeners, with which security protocol and TLS settings; servers of one process share
  // `connections` (the caps hold per process), or make their own when it is null.
  TcpServer(asio::io_context& io, Broker& broker, const std::string& host, std::uint16_t port,
            ConnectionListener listener = {},
            std::shared_ptr<ConnectionCounter> connections = nullptr);

  // Starts accepting connections (on the io_context's thread, once it runs), and logs the
  // connection caps in force.
  void start();
  // Stops accepting; open connections go on until the io_context stops.
  void stop();
  // The broker stopped (POST /v1/brokers/{id}/stop): the listener closes, so connecting is
  // refused, and every open connection closes. listen_again() binds the same address again
  // and accepts once more; it throws std::system_error if the port was taken meanwhile.
  void stop_and_close_connections();
  void listen_again();
  [[nodiscard]] const std::shared_ptr<ConnectionCounter>& connection_counter() const {
    return connections_;
  }

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
  // Binds and listens on endpoint_.
  void listen();

  asio::ip::tcp::acceptor acceptor_;
  asio::ip::tcp::endpoint endpoint_;  // the address bound (port 0 resolved)
  ConnectionListener listener_;
  // The connections open now, to close when the broker stops; shared with their coroutines.
  std::shared_ptr<std::unordered_set<Connection*>> open_ =
      std::make_shared<std::unordered_set<Connection*>>();
  // Shared with the connections' coroutines, which end with the io_context, after the server.
  std::shared_ptr<ConnectionCounter> connections_;
  LogThrottle refused_total_log_;            // connections beyond --max-connections
  LogThrottle refused_per_address_log_;      // connections beyond --max-connections-per-ip
  LogThrottle accept_failed_log_;            // accept() errors (e.g. out of descriptors)
  LogThrottle refused_unauthenticated_log_;  // beyond --max-unauthenticated-connections
};

}  // namespace kgroups::broker
