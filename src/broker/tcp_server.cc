// SPDX-License-Identifier: Apache-2.0
#include "broker/tcp_server.h"

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/redirect_error.hpp>
#include <asio/steady_timer.hpp>
#include <asio/use_awaitable.hpp>
#include <memory>
#include <system_error>

#include "broker/connection.h"
#include "broker/logger.h"

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

// Runs one connection; the coroutine frame's copy of the pointer keeps it alive meanwhile.
asio::awaitable<void> serve(std::shared_ptr<Connection> connection) { co_await connection->run(); }

}  // namespace

TcpServer::TcpServer(asio::io_context& io, Broker& broker, const std::string& host,
                     std::uint16_t port)
    : io_(io), broker_(broker), acceptor_(io) {
  const asio::ip::tcp::endpoint endpoint = resolve_endpoint(host, port);
  const std::string where = host + ":" + std::to_string(port);
  std::error_code error;
  acceptor_.open(endpoint.protocol(), error);
  if (!error) acceptor_.set_option(asio::ip::tcp::acceptor::reuse_address(true), error);
  if (!error) acceptor_.bind(endpoint, error);
  if (!error) acceptor_.listen(asio::socket_base::max_listen_connections, error);
  if (error) throw std::system_error(error, "cannot listen on " + where);
}

void TcpServer::start() { asio::co_spawn(io_, accept_loop(), asio::detached); }

void TcpServer::stop() {
  std::error_code ignored;
  acceptor_.close(ignored);
}

std::string TcpServer::host() const { return acceptor_.local_endpoint().address().to_string(); }

std::uint16_t TcpServer::port() const { return acceptor_.local_endpoint().port(); }

asio::awaitable<void> TcpServer::accept_loop() {
  while (acceptor_.is_open()) {
    std::error_code error;
    asio::ip::tcp::socket socket =
        co_await acceptor_.async_accept(asio::redirect_error(asio::use_awaitable, error));
    if (error) {
      if (error == asio::error::operation_aborted || !acceptor_.is_open()) co_return;
      // Out of file descriptors and similar: log, pause briefly, and go on accepting.
      log_warn(std::string("accept failed: ") + error.message());
      asio::steady_timer pause(io_, std::chrono::milliseconds(100));
      co_await pause.async_wait(asio::redirect_error(asio::use_awaitable, error));
      continue;
    }
    asio::co_spawn(io_, serve(std::make_shared<Connection>(std::move(socket), broker_)),
                   asio::detached);
  }
}

}  // namespace kgroups::broker
