// SPDX-License-Identifier: Apache-2.0
#include "broker/net/tcp_server.h"

#include <algorithm>
#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/redirect_error.hpp>
#include <asio/steady_timer.hpp>
#include <asio/use_awaitable.hpp>
#include <limits>
#include <system_error>
#include <utility>

#include "broker/net/connection.h"
#include "broker/net/open_file_limit.h"
#include "broker/runtime/logger.h"

namespace kgroups::broker {
namespace {

asio::ip::tcp::endpoint resolve_endpoint(const std::string& host, std::uint16_t port) {
  std::error_code error;
  const std::string numeric = host == "localhost" ? "127.0.0.1" : host;
  const asio::ip::address address = asio::ip::make_address(numeric, error);
  if (error) {
    throw std::system_error(
        error, "cannot listen on \"" + host + "\": not a numeric IP address (use e.g. 127.0.0.1)");
  }
  return {address, port};
}

std::int64_t effective_max_connections(std::int64_t configured) {
  const std::int64_t files = open_file_limit();
  if (files == std::numeric_limits<std::int64_t>::max()) return configured;
  return std::max<std::int64_t>(1,
                                std::min(configured, files - TcpServer::kReservedFileDescriptors));
}

// Runs one connection, counted in `counter` until it ends; the coroutine frame's copies of
// the pointers keep the connection and the counter alive meanwhile (also when the io_context
// is destroyed with the connection suspended).
asio::awaitable<void> serve(std::shared_ptr<Connection> connection,
                            std::shared_ptr<ConnectionCounter> counter, std::string address,
                            std::shared_ptr<std::unordered_set<Connection*>> open) {
  struct Uncount {
    ConnectionCounter& counter;
    const std::string& address;
    std::unordered_set<Connection*>& open;
    Connection* connection;
    ~Uncount() {
      counter.release(address);
      open.erase(connection);
    }
  } uncount{*counter, address, *open, connection.get()};
  open->insert(connection.get());
  co_await connection->run();
}

}  // namespace

TcpServer::TcpServer(asio::io_context& io, Broker& broker, const std::string& host,
                     std::uint16_t port, ConnectionListener listener,
                     std::shared_ptr<ConnectionCounter> connections)
    : io_(io),
      broker_(broker),
      acceptor_(io),
      endpoint_(resolve_endpoint(host, port)),
      listener_(std::move(listener)),
      connections_(connections != nullptr
                       ? std::move(connections)
                       : std::make_shared<ConnectionCounter>(
                             effective_max_connections(broker.config().max_connections),
                             broker.config().max_connections_per_ip)) {
  listen();
  endpoint_ = acceptor_.local_endpoint();
}

void TcpServer::listen() {
  const std::string where =
      endpoint_.address().to_string() + ":" + std::to_string(endpoint_.port());
  std::error_code error;
  acceptor_.open(endpoint_.protocol(), error);
  if (!error) acceptor_.set_option(asio::ip::tcp::acceptor::reuse_address(true), error);
  if (!error) acceptor_.bind(endpoint_, error);
  if (!error) acceptor_.listen(asio::socket_base::max_listen_connections, error);
  if (error) {
    std::error_code ignored;
    acceptor_.close(ignored);
    throw std::system_error(error, "cannot listen on " + where);
  }
}

void TcpServer::stop_and_close_connections() {
  stop();
  for (Connection* connection : *open_) connection->shut();
}

void TcpServer::listen_again() {
  if (acceptor_.is_open()) return;
  listen();
  asio::co_spawn(io_, accept_loop(), asio::detached);
}

void TcpServer::start() {
  std::string caps = "accepting at most " + std::to_string(connections_->max_total()) +
                     " connections, " + std::to_string(connections_->max_per_address()) +
                     " per client address";
  if (connections_->max_total() < broker_.config().max_connections) {
    caps += " (--max-connections " + std::to_string(broker_.config().max_connections) +
            " lowered: the open-file limit is " + std::to_string(open_file_limit()) + ")";
  }
  if (listener_.node_id == 0 && listener_.index == 0)
    log_info(caps);  // the caps are the process's, shared by its brokers
  asio::co_spawn(io_, accept_loop(), asio::detached);
}

void TcpServer::stop() {
  std::error_code ignored;
  acceptor_.close(ignored);
}

std::string TcpServer::host() const { return endpoint_.address().to_string(); }

std::uint16_t TcpServer::port() const { return endpoint_.port(); }

void TcpServer::refuse(asio::ip::tcp::socket& socket, LogThrottle& throttle,
                       const std::string& reason) {
  const std::optional<std::uint64_t> left_out = throttle.admit(LogThrottle::Clock::now());
  if (left_out) {
    std::string line = reason + "; closing it";
    if (*left_out > 0) {
      line += " (and " + std::to_string(*left_out) + " more refused since the last such line)";
    }
    log_warn(line);
  }
  std::error_code ignored;
  socket.close(ignored);
}

asio::awaitable<void> TcpServer::accept_loop() {
  while (acceptor_.is_open()) {
    std::error_code error;
    asio::ip::tcp::socket socket =
        co_await acceptor_.async_accept(asio::redirect_error(asio::use_awaitable, error));
    if (error) {
      if (error == asio::error::operation_aborted || !acceptor_.is_open()) co_return;
      // Out of file descriptors and similar: log, pause briefly, and go on accepting.
      const std::optional<std::uint64_t> left_out =
          accept_failed_log_.admit(LogThrottle::Clock::now());
      if (left_out) {
        log_warn("accept failed: " + error.message() +
                 (*left_out > 0 ? " (and " + std::to_string(*left_out) + " more times)" : ""));
      }
      asio::steady_timer pause(io_, std::chrono::milliseconds(100));
      co_await pause.async_wait(asio::redirect_error(asio::use_awaitable, error));
      continue;
    }
    const auto peer = socket.remote_endpoint(error);
    std::string address = error ? std::string("unknown") : peer.address().to_string();
    switch (connections_->admit(address)) {
      case ConnectionCounter::Admission::kAdmitted:
        break;
      case ConnectionCounter::Admission::kTooManyConnections:
        refuse(socket, refused_total_log_,
               "refused a connection from " + address + ": " +
                   std::to_string(connections_->total()) +
                   " connections are open, the limit (--max-connections)");
        continue;
      case ConnectionCounter::Admission::kTooManyFromAddress:
        refuse(socket, refused_per_address_log_,
               "refused a connection from " + address + ": " +
                   std::to_string(connections_->from(address)) +
                   " connections from that address are open, the limit "
                   "(--max-connections-per-ip)");
        continue;
    }
    ConnectionListener listener = listener_;
    if (listener_.unauthenticated != nullptr) {
      UnauthenticatedConnections& pending = *listener_.unauthenticated;
      if (pending.count >= pending.max) {
        connections_->release(address);
        refuse(socket, refused_unauthenticated_log_,
               "refused a connection from " + address + ": " + std::to_string(pending.count) +
                   " connections are still authenticating, the limit "
                   "(--max-unauthenticated-connections)");
        continue;
      }
      ++pending.count;  // the connection gives it back once authenticated or closed
    }
    asio::co_spawn(
        io_,
        serve(std::make_shared<Connection>(std::move(socket), broker_, std::move(listener)),
              connections_, std::move(address), open_),
        asio::detached);
  }
}

}  // namespace kgroups::broker
