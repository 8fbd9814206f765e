// SPDX-License-Identifier: Apache-2.0
#include "broker/http/http_connection.h"

#include <array>
#include <asio/experimental/as_tuple.hpp>
#include <asio/experimental/awaitable_operators.hpp>
#include <asio/redirect_error.hpp>
#include <asio/steady_timer.hpp>
#include <asio/use_awaitable.hpp>
#include <asio/write.hpp>
#include <deque>
#include <exception>
#include <system_error>
#include <utility>
#include <variant>

#include "broker/runtime/logger.h"

namespace kgroups::broker::http {
namespace {

using SteadyTime = std::chrono::steady_clock::time_point;
// Used by the co_await (a || b) expressions below, which clang-tidy does not count.
using asio::experimental::awaitable_operators::operator||;  // NOLINT(misc-unused-using-decls)

constexpr std::size_t kReadChunkBytes = 8192;

std::string_view reason_phrase(int status) {
  switch (status) {
    case 100:
      return "Continue";
    case 200:
      return "OK";
    case 201:
      return "Created";
    case 204:
      return "No Content";
    case 400:
      return "Bad Request";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 409:
      return "Conflict";
    case 413:
      return "Content Too Large";
    case 415:
      return "Unsupported Media Type";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 503:
      return "Service Unavailable";
    default:
      return "Status";
  }
}

// The open response of a streaming route: a bounded queue the connection's writer drains.
// The writer sets `wakeup` while it waits; the stream never outlives its use of it, because
// the writer clears it when it ends (the route may hold the stream longer).
class StreamChannel final : public HttpStream {
 public:
  explicit StreamChannel(std::size_t max_queued_bytes) : max_queued_bytes_(max_queued_bytes) {}

  bool send(std::string_view bytes) override {
    if (closed_) return false;
    if (queued_bytes_ + bytes.size() > max_queued_bytes_) {
      overflowed_ = true;
      close();
      return false;
    }
    queue_.emplace_back(bytes);
    queued_bytes_ += bytes.size();
    wake();
    return true;
  }
  [[nodiscard]] bool closed() const override { return closed_; }

  void close() {
    closed_ = true;
    wake();
  }
  [[nodiscard]] bool overflowed() const { return overflowed_; }
  [[nodiscard]] bool empty() const { return queue_.empty(); }
  std::string pop() {
    std::string front = std::move(queue_.front());
    queue_.pop_front();
    return front;
  }
  // Bytes written: they no longer count towards the bound.
  void written(std::size_t bytes) { queued_bytes_ -= std::min(bytes, queued_bytes_); }
  void set_wakeup(asio::steady_timer* timer) { wakeup_ = timer; }

 private:
  void wake() {
    if (wakeup_ != nullptr) wakeup_->cancel();
  }

  std::size_t max_queued_bytes_;
  std::size_t queued_bytes_ = 0;
  std::deque<std::string> queue_;
  bool closed_ = false;
  bool overflowed_ = false;
  asio::steady_timer* wakeup_ = nullptr;
};

}  // namespace

HttpConnection::HttpConnection(asio::ip::tcp::socket socket, const HttpRouter& router,
                               std::shared_ptr<const HttpAccessPolicy> policy,
                               HttpServerLimits limits, ByteBudget* response_memory,
                               std::shared_ptr<LogThrottle> refused_log)
    : socket_(std::move(socket)),
      router_(router),
      policy_(std::move(policy)),
      limits_(limits),
      response_memory_(response_memory),
      refused_log_(std::move(refused_log)),
      parser_(limits.parser) {
  std::error_code error;
  const auto endpoint = socket_.remote_endpoint(error);
  if (!error) address_ = endpoint.address();
  peer_ = error ? std::string("http client")
                : "http client " + endpoint.address().to_string() + ":" +
                      std::to_string(endpoint.port());
}

void HttpConnection::evict() {
  if (evicted_) return;
  evicted_ = true;
  std::error_code ignored;
  socket_.close(ignored);  // the pending read or stream ends, and with it run()
}

void HttpConnection::log_refusal(const std::string& line) {
  if (refused_log_ == nullptr) return log_info(line);
  const std::optional<std::uint64_t> left_out = refused_log_->admit(LogThrottle::Clock::now());
  if (!left_out) return;
  log_info(*left_out == 0 ? line
                          : line + " (and " + std::to_string(*left_out) +
                                " more requests refused since the last such line)");
}

std::string HttpConnection::serialize(const HttpResponse& response, bool keep_alive) {
  std::string out = serialize_head(response, keep_alive);
  out += response.body;
  return out;
}

std::string HttpConnection::serialize_head(const HttpResponse& response, bool keep_alive) {
  std::string out = "HTTP/1.1 " + std::to_string(response.status) + " ";
  out += reason_phrase(response.status);
  out += "\r\nContent-Type: ";
  out += response.content_type;
  out += "\r\nContent-Length: " + std::to_string(response.body.size());
  for (const auto& [name, value] : response.headers) {
    out.append("\r\n").append(name).append(": ").append(value);
  }
  out += keep_alive ? "\r\nConnection: keep-alive\r\n\r\n" : "\r\nConnection: close\r\n\r\n";
  return out;
}

asio::awaitable<bool> HttpConnection::write_response(const HttpResponse& response,
                                                     bool keep_alive) {
  const auto charged = static_cast<std::int64_t>(response.body.size());
  if (response_memory_ != nullptr && !response_memory_->try_take(charged)) {
    log_refusal(peer_ + ": an answer of " + std::to_string(charged) +
                " bytes does not fit in the response memory now; answered 503");
    co_return co_await write_all(
        serialize(HttpResponse::error(503,
                                      "kgroupsd's response memory is full now (answers not yet "
                                      "taken by slow clients); retry in a moment"),
                  keep_alive));
  }
  struct GiveBack {
    ByteBudget* budget;
    std::int64_t bytes;
    ~GiveBack() {
      if (budget != nullptr) budget->give_back(bytes);
    }
  } give_back{response_memory_, charged};
  if (!co_await write_all(serialize_head(response, keep_alive))) co_return false;
  co_return co_await write_all(response.body);
}

asio::awaitable<bool> HttpConnection::read_some(SteadyTime deadline) {
  std::array<char, kReadChunkBytes> chunk{};
  asio::steady_timer timer(socket_.get_executor(), deadline);
  const auto result =
      co_await (socket_.async_read_some(asio::buffer(chunk),
                                        asio::experimental::as_tuple(asio::use_awaitable)) ||
                timer.async_wait(asio::experimental::as_tuple(asio::use_awaitable)));
  if (result.index() == 1) co_return false;  // the deadline passed
  const auto [error, received] = std::get<0>(result);
  if (error) co_return false;
  buffer_.append(chunk.data(), received);
  co_return true;
}

asio::awaitable<bool> HttpConnection::write_all(std::string_view bytes) {
  asio::steady_timer timer(socket_.get_executor(), limits_.idle_timeout);
  const auto result =
      co_await (asio::async_write(socket_, asio::buffer(bytes.data(), bytes.size()),
                                  asio::experimental::as_tuple(asio::use_awaitable)) ||
                timer.async_wait(asio::experimental::as_tuple(asio::use_awaitable)));
  if (result.index() == 1) {
    log_info(peer_ + " took no response for " + std::to_string(limits_.idle_timeout.count()) +
             " ms (--http-idle-timeout-ms); closing the connection");
    co_return false;
  }
  co_return !std::get<0>(std::get<0>(result));
}

asio::awaitable<void> HttpConnection::run() {
  try {
    SteadyTime request_started{};
    for (;;) {
      bool request_taken = false;
      while (!buffer_.empty()) {
        const bool was_in_request = parser_.in_request();
        const HttpRequestParser::FeedResult fed = parser_.feed(buffer_);
        buffer_.erase(0, fed.consumed);
        if (fed.outcome == HttpRequestParser::Outcome::kError) {
          log_info(peer_ + ": " + parser_.error_message() + "; closing the connection");
          co_await write_all(serialize(
              HttpResponse::error(parser_.error_status(), parser_.error_message()), false));
          co_return;
        }
        if (fed.outcome == HttpRequestParser::Outcome::kNeedMore) {
          if (!was_in_request && parser_.in_request())
            request_started = std::chrono::steady_clock::now();
          break;
        }
        request_taken = true;
        const bool keep_alive = parser_.keep_alive();
        if (co_await answer(parser_.take_request(), keep_alive) == Next::kClose) co_return;
      }
      if (request_taken && parser_.in_request()) request_started = std::chrono::steady_clock::now();
      if (parser_.expects_continue()) {
        parser_.continue_sent();
        if (!co_await write_all("HTTP/1.1 100 Continue\r\n\r\n")) co_return;
      }
      const SteadyTime deadline =
          (parser_.in_request() ? request_started : std::chrono::steady_clock::now()) +
          limits_.idle_timeout;
      if (!co_await read_some(deadline)) {
        if (std::chrono::steady_clock::now() >= deadline) {
          log_info(
              peer_ +
              (parser_.in_request() ? " did not complete a request within " : " was idle for ") +
              std::to_string(limits_.idle_timeout.count()) +
              " ms (--http-idle-timeout-ms); closing the connection");
        }
        co_return;
      }
    }
  } catch (const std::exception& e) {
    log_warn(peer_ + " connection error: " + e.what());
  }
}

asio::awaitable<HttpConnection::Next> HttpConnection::answer(HttpRequest request, bool keep_alive) {
  if (std::optional<HttpResponse> refused = policy_->refusal(request)) {
    log_refusal(peer_ + ": " + request.method + " " + request.path + " refused (" +
                std::to_string(refused->status) + "): " + refused->body);
    if (!co_await write_all(serialize(*refused, keep_alive))) co_return Next::kClose;
    co_return keep_alive ? Next::kContinue : Next::kClose;
  }
  HttpRouter::Match match = router_.dispatch(request);
  if (match.stream != nullptr) {
    waiting_since_ = std::chrono::steady_clock::now();  // a stream can make room, oldest first
    co_await stream(*match.stream, std::move(request));
    co_return Next::kClose;
  }
  answering_ = true;
  const bool written = co_await write_response(match.response, keep_alive);
  answering_ = false;
  waiting_since_ = std::chrono::steady_clock::now();
  if (!written) co_return Next::kClose;
  co_return keep_alive ? Next::kContinue : Next::kClose;
}

asio::awaitable<void> HttpConnection::stream(const HttpRouter::StreamHandler& handler,
                                             HttpRequest request) {
  auto channel = std::make_shared<StreamChannel>(limits_.max_stream_queue_bytes);
  if (!co_await write_all("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                          "Cache-Control: no-cache\r\nConnection: close\r\n\r\n")) {
    co_return;
  }
  handler(request, channel);
  asio::steady_timer wakeup(socket_.get_executor());
  struct Detach {
    StreamChannel& channel;
    ~Detach() {
      channel.set_wakeup(nullptr);  // close() then wakes no timer
      try {
        channel.close();
      } catch (...) {  // nothing to wake: cannot happen, and a destructor must not throw
      }
    }
  } detach{*channel};
  channel->set_wakeup(&wakeup);

  auto writer = [&]() -> asio::awaitable<void> {
    for (;;) {
      if (!channel->empty()) {
        const std::string bytes = channel->pop();
        if (!co_await write_all(bytes)) co_return;
        channel->written(bytes.size());
        continue;
      }
      if (channel->closed()) {
        if (channel->overflowed()) {
          log_info(peer_ + " read its stream too slowly (over " +
                   std::to_string(limits_.max_stream_queue_bytes) +
                   " bytes unsent, --http-max-stream-queue-bytes); closing it");
        }
        co_return;
      }
      wakeup.expires_at(SteadyTime::max());
      std::error_code ignored;  // cancelled: the route sent bytes or closed the stream
      co_await wakeup.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
    }
  };
  // The client sends nothing more on a stream; reading notices when it leaves.
  auto until_client_leaves = [&]() -> asio::awaitable<void> {
    std::array<char, 512> discard{};
    for (;;) {
      const auto [error, received] = co_await socket_.async_read_some(
          asio::buffer(discard), asio::experimental::as_tuple(asio::use_awaitable));
      if (error) co_return;
    }
  };
  co_await (writer() || until_client_leaves());
}

}  // namespace kgroups::broker::http
