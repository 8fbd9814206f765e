// SPDX-License-Identifier: Apache-2.0
#include "broker/http/http_server.h"

#include <array>
#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/experimental/as_tuple.hpp>
#include <asio/experimental/awaitable_operators.hpp>
#include <asio/steady_timer.hpp>
#include <asio/use_awaitable.hpp>
#include <asio/write.hpp>
#include <system_error>
#include <utility>

#include "broker/runtime/logger.h"

namespace kgroups::broker::http {
namespace {

// Used by the co_await (a || b) expression below, which clang-tidy does not count.
using asio::experimental::awaitable_operators::operator||;  // NOLINT(misc-unused-using-decls)

// How long a refused connection is read (and its bytes dropped) after the 503 went out, so
// that closing it does not reset the connection before the client read the answer.
constexpr std::chrono::milliseconds kRefusalLinger{200};

asio::ip::tcp::endpoint resolve_endpoint(const std::string& host, std::uint16_t port) {
  std::error_code error;
  const std::string numeric = host == "localhost" ? "127.0.0.1" : host;
  const asio::ip::address address = asio::ip::make_address(numeric, error);
  if (error) {
    throw std::system_error(error, "cannot serve http on \"" + host +
                                       "\": not a numeric IP address (use e.g. 127.0.0.1)");
  }
  return {address, port};
}

// Serves `connection`, listed in `open` at `entry` (by the accept loop, so the next accept
// counts it), and unlists it when it ends.
asio::awaitable<void> serve(std::shared_ptr<HttpConnection> connection,
                            std::shared_ptr<std::list<HttpConnection*>> open,
                            std::list<HttpConnection*>::iterator entry) {
  struct Unlist {
    std::list<HttpConnection*>& open;
    std::list<HttpConnection*>::iterator entry;
    ~Unlist() { open.erase(entry); }
  } unlist{*open, entry};
  co_await connection->run();
}

asio::awaitable<void> refuse(asio::ip::tcp::socket socket, std::string message) {
  const std::string answer = HttpConnection::serialize(HttpResponse::error(503, message), false);
  const auto [error, written] = co_await asio::async_write(
      socket, asio::buffer(answer), asio::experimental::as_tuple(asio::use_awaitable));
  if (error) co_return;
  std::error_code ignored;
  socket.shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
  asio::steady_timer linger(socket.get_executor(), kRefusalLinger);
  auto drain = [&]() -> asio::awaitable<void> {
    std::array<char, 1024> discard{};
    for (;;) {
      const auto [read_error, received] = co_await socket.async_read_some(
          asio::buffer(discard), asio::experimental::as_tuple(asio::use_awaitable));
      if (read_error) co_return;
    }
  };
  co_await (drain() || linger.async_wait(asio::experimental::as_tuple(asio::use_awaitable)));
}

}  // namespace

HttpServer::HttpServer(asio::io_context& io, const HttpRouter& router, HttpServerLimits limits,
                       const std::string& host, std::uint16_t port,
                       const std::vector<std::string>& allowed_hosts, ByteBudget* response_memory)
    : io_(io),
      router_(router),
      limits_(limits),
      policy_(std::make_shared<const HttpAccessPolicy>(host, allowed_hosts)),
      response_memory_(response_memory),
      acceptor_(io) {
  const asio::ip::tcp::endpoint endpoint = resolve_endpoint(host, port);
  std::error_code error;
  acceptor_.open(endpoint.protocol(), error);
  if (!error) acceptor_.set_option(asio::ip::tcp::acceptor::reuse_address(true), error);
  if (!error) acceptor_.bind(endpoint, error);
  if (!error) acceptor_.listen(asio::socket_base::max_listen_connections, error);
  if (error) {
    throw std::system_error(error, "cannot serve http on " + host + ":" + std::to_string(port));
  }
}

void HttpServer::start() { asio::co_spawn(io_, accept_loop(), asio::detached); }

void HttpServer::stop() {
  std::error_code ignored;
  acceptor_.close(ignored);
}

std::string HttpServer::host() const { return acceptor_.local_endpoint().address().to_string(); }

std::uint16_t HttpServer::port() const { return acceptor_.local_endpoint().port(); }

bool HttpServer::loopback() const { return acceptor_.local_endpoint().address().is_loopback(); }

bool HttpServer::admit(const asio::ip::address& address) {
  std::size_t open = 0;
  std::size_t from_address = 0;
  for (const HttpConnection* connection : *open_) {
    if (connection->evicted()) continue;
    ++open;
    if (connection->address() == address) ++from_address;
  }
  if (from_address >= limits_.max_connections_per_address) {
    if (!make_room(&address, "--http-max-connections-per-ip " +
                                 std::to_string(limits_.max_connections_per_address) + " from " +
                                 address.to_string())) {
      return false;
    }
    --open;
  }
  if (open >= limits_.max_connections) {
    return make_room(nullptr, "--http-max-connections " + std::to_string(limits_.max_connections));
  }
  return true;
}

bool HttpServer::make_room(const asio::ip::address* address, std::string_view reason) {
  HttpConnection* stalest = nullptr;
  for (HttpConnection* connection : *open_) {
    if (connection->evicted() || connection->answering()) continue;
    if (address != nullptr && connection->address() != *address) continue;
    if (stalest == nullptr || connection->waiting_since() < stalest->waiting_since()) {
      stalest = connection;
    }
  }
  if (stalest == nullptr) return false;
  if (const std::optional<std::uint64_t> left_out = evicted_log_.admit(LogThrottle::Clock::now())) {
    log_info("http client " + stalest->address().to_string() +
             " closed to make room for a new connection (" + std::string(reason) + ")" +
             (*left_out == 0 ? std::string()
                             : " (and " + std::to_string(*left_out) +
                                   " more closed since the last such line)"));
  }
  stalest->evict();
  return true;
}

asio::awaitable<void> HttpServer::accept_loop() {
  while (acceptor_.is_open()) {
    auto [error, socket] =
        co_await acceptor_.async_accept(asio::experimental::as_tuple(asio::use_awaitable));
    if (error) {
      if (error == asio::error::operation_aborted || !acceptor_.is_open()) co_return;
      log_warn("http accept failed: " + error.message());
      asio::steady_timer pause(io_, std::chrono::milliseconds(100));
      co_await pause.async_wait(asio::experimental::as_tuple(asio::use_awaitable));
      continue;
    }
    std::error_code unknown;
    const asio::ip::address address = socket.remote_endpoint(unknown).address();
    if (!admit(address)) {
      asio::co_spawn(
          io_,
          refuse(std::move(socket),
                 "too many HTTP connections are open and every one is busy answering "
                 "(--http-max-connections " +
                     std::to_string(limits_.max_connections) + ", --http-max-connections-per-ip " +
                     std::to_string(limits_.max_connections_per_address) + "); retry in a moment"),
          asio::detached);
      continue;
    }
    auto connection = std::make_shared<HttpConnection>(std::move(socket), router_, policy_, limits_,
                                                       response_memory_, refused_log_);
    open_->push_front(connection.get());
    asio::co_spawn(io_, serve(std::move(connection), open_, open_->begin()), asio::detached);
  }
}

}  // namespace kgroups::broker::http
