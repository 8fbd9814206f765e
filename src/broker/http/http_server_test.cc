// SPDX-License-Identifier: Apache-2.0
#include "broker/http/http_server.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <asio/connect.hpp>
#include <asio/post.hpp>
#include <asio/read.hpp>
#include <asio/write.hpp>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace kgroups::broker::http {
namespace {

using asio::ip::tcp;

// A server on its own io_context thread, and blocking client sockets (reads time out after
// 5 s, so a broken server fails the test instead of hanging it).
class HttpServerTest : public ::testing::Test {
 protected:
  void start(HttpServerLimits limits = {}) {
    router_.add("GET", "/hello", [](const HttpRequest&) {
      HttpResponse response;
      response.body = "{\"hello\": true}";
      return response;
    });
    router_.add("GET", "/big", [](const HttpRequest&) {
      HttpResponse response;
      response.body.assign(std::size_t{64} << 20, 'x');
      return response;
    });
    router_.add("POST", "/echo", [](const HttpRequest& request) {
      HttpResponse response;
      response.body = request.body;
      return response;
    });
    router_.add_stream("GET", "/stream", [this](const HttpRequest&, std::shared_ptr<HttpStream> s) {
      s->send("data: first\n\n");
      stream_ = std::move(s);
    });
    router_.add_stream("GET", "/flood", [this](const HttpRequest&, std::shared_ptr<HttpStream> s) {
      flood_accepted_ = s->send(std::string(4096, 'x'));
      stream_ = std::move(s);
    });
    server_ = std::make_unique<HttpServer>(io_, router_, limits, "127.0.0.1", 0,
                                           std::vector<std::string>{}, response_memory_);
    server_->start();
    thread_ = std::thread([this] { io_.run(); });
  }

  void TearDown() override {
    if (thread_.joinable()) {
      io_.stop();
      thread_.join();
    }
  }

  tcp::socket connect() {
    tcp::socket socket(client_io_);
    socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), server_->port()));
    timeval timeout{.tv_sec = 5, .tv_usec = 0};
    setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    return socket;
  }

  // A client socket bound to `local_address` (another loopback address) before it connects.
  tcp::socket connect_from(const char* local_address) {
    tcp::socket socket(client_io_);
    socket.open(tcp::v4());
    socket.bind(tcp::endpoint(asio::ip::make_address(local_address), 0));
    socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), server_->port()));
    timeval timeout{.tv_sec = 5, .tv_usec = 0};
    setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    return socket;
  }

  static void send(tcp::socket& socket, const std::string& bytes) {
    asio::write(socket, asio::buffer(bytes));
  }

  // Reads one response (head and Content-Length body); "" on EOF before any byte.
  static std::string read_response(tcp::socket& socket, std::string& pending) {
    std::array<char, 4096> chunk{};
    std::error_code error;
    while (pending.find("\r\n\r\n") == std::string::npos) {
      const std::size_t n = socket.read_some(asio::buffer(chunk), error);
      if (error) return std::exchange(pending, {});
      pending.append(chunk.data(), n);
    }
    const std::size_t head_end = pending.find("\r\n\r\n") + 4;
    std::size_t length = 0;
    const std::size_t at = pending.find("Content-Length: ");
    if (at != std::string::npos && at < head_end) length = std::stoul(pending.substr(at + 16));
    while (pending.size() < head_end + length) {
      const std::size_t n = socket.read_some(asio::buffer(chunk), error);
      if (error) break;
      pending.append(chunk.data(), n);
    }
    std::string response = pending.substr(0, head_end + length);
    pending.erase(0, response.size());
    return response;
  }

  // Whether the server closed the connection (EOF or reset) within the read timeout.
  static bool closed_by_server(tcp::socket& socket) {
    std::array<char, 4096> chunk{};
    for (;;) {
      std::error_code error;
      socket.read_some(asio::buffer(chunk), error);
      if (error == asio::error::eof || error == asio::error::connection_reset) return true;
      if (error) return false;  // timed out
    }
  }

  asio::io_context io_;
  asio::io_context client_io_;
  HttpRouter router_;
  std::unique_ptr<HttpServer> server_;
  ByteBudget* response_memory_ = nullptr;  // set before start() to charge answers
  std::thread thread_;
  std::shared_ptr<HttpStream> stream_;  // touched on the server's thread only
  bool flood_accepted_ = true;
};

TEST_F(HttpServerTest, KeepAliveServesTwoRequestsOnOneConnectionThenCloseEndsIt) {
  start();
  tcp::socket socket = connect();
  std::string pending;
  send(socket, "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  const std::string first = read_response(socket, pending);
  EXPECT_EQ(first.rfind("HTTP/1.1 200 OK\r\n", 0), 0U) << first;
  EXPECT_NE(first.find("Connection: keep-alive"), std::string::npos);
  EXPECT_NE(first.find("{\"hello\": true}"), std::string::npos);
  send(socket,
       "POST /echo HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 5\r\n"
       "Connection: close\r\n\r\nabcde");
  const std::string second = read_response(socket, pending);
  EXPECT_EQ(second.rfind("HTTP/1.1 200 OK\r\n", 0), 0U) << second;
  EXPECT_NE(second.find("Connection: close"), std::string::npos);
  EXPECT_EQ(second.substr(second.size() - 5), "abcde");
  EXPECT_TRUE(closed_by_server(socket));
}

TEST_F(HttpServerTest, ARequestTheAccessPolicyRefusesNeverReachesItsRouteAndTheConnectionGoesOn) {
  start();
  tcp::socket socket = connect();
  std::string pending;
  send(socket, "GET /hello HTTP/1.1\r\nHost: evil.example:8080\r\n\r\n");
  const std::string rebound = read_response(socket, pending);
  EXPECT_EQ(rebound.rfind("HTTP/1.1 403 Forbidden\r\n", 0), 0U) << rebound;
  EXPECT_EQ(rebound.find("hello"), std::string::npos);
  send(socket, "POST /echo HTTP/1.1\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nabcde");
  const std::string form = read_response(socket, pending);
  EXPECT_EQ(form.rfind("HTTP/1.1 415 Unsupported Media Type\r\n", 0), 0U) << form;
  send(socket, "GET /hello HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
  EXPECT_NE(read_response(socket, pending).find("{\"hello\": true}"), std::string::npos);
}

TEST_F(HttpServerTest, AnAnswerThatDoesNotFitInTheResponseMemoryIs503AndTheBytesComeBack) {
  ByteBudget budget(4096);
  response_memory_ = &budget;
  start();
  tcp::socket socket = connect();
  std::string pending;
  send(socket, "GET /big HTTP/1.1\r\n\r\n");
  const std::string refused = read_response(socket, pending);
  EXPECT_EQ(refused.rfind("HTTP/1.1 503 ", 0), 0U) << refused.substr(0, 200);
  EXPECT_NE(refused.find("response memory"), std::string::npos);
  send(socket, "GET /hello HTTP/1.1\r\n\r\n");
  EXPECT_NE(read_response(socket, pending).find("{\"hello\": true}"), std::string::npos);
  std::promise<std::int64_t> used;
  asio::post(io_, [&] { used.set_value(budget.used()); });
  EXPECT_EQ(used.get_future().get(), 0) << "every answer's bytes are given back once written";
}

TEST_F(HttpServerTest, PipelinedRequestsAreAnsweredInOrder) {
  start();
  tcp::socket socket = connect();
  std::string pending;
  send(socket,
       "POST /echo HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 3\r\n\r\none"
       "POST /echo HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 3\r\n\r\ntwo"
       "GET /nowhere HTTP/1.1\r\n\r\n");
  EXPECT_EQ(read_response(socket, pending).substr(0, 15), "HTTP/1.1 200 OK");
  EXPECT_TRUE(pending.empty() || pending.rfind("HTTP/1.1", 0) == 0);
  const std::string second = read_response(socket, pending);
  EXPECT_EQ(second.substr(second.size() - 3), "two");
  EXPECT_EQ(read_response(socket, pending).substr(0, 12), "HTTP/1.1 404");
}

TEST_F(HttpServerTest, OversizedHeadIs431AndCloses) {
  HttpServerLimits limits;
  limits.parser.max_head_bytes = 1024;
  start(limits);
  tcp::socket socket = connect();
  std::string pending;
  send(socket, "GET /hello HTTP/1.1\r\nX-Big: " + std::string(4000, 'a') + "\r\n\r\n");
  const std::string answer = read_response(socket, pending);
  EXPECT_EQ(answer.rfind("HTTP/1.1 431 ", 0), 0U) << answer;
  EXPECT_NE(answer.find("\"status\":431"), std::string::npos);
  EXPECT_TRUE(closed_by_server(socket));
}

TEST_F(HttpServerTest, OversizedBodyIs413AndCloses) {
  HttpServerLimits limits;
  limits.parser.max_body_bytes = 16;
  start(limits);
  tcp::socket socket = connect();
  std::string pending;
  send(socket,
       "POST /echo HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 17\r\n\r\n");
  EXPECT_EQ(read_response(socket, pending).rfind("HTTP/1.1 413 ", 0), 0U);
  EXPECT_TRUE(closed_by_server(socket));
}

TEST_F(HttpServerTest, GarbageIs400AndClosesWhileOtherConnectionsGoOn) {
  start();
  tcp::socket good = connect();
  tcp::socket bad = connect();
  std::string pending;
  send(bad, std::string("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03garbage\r\n\r\n", 22));
  const std::string answer = read_response(bad, pending);
  EXPECT_EQ(answer.rfind("HTTP/1.1 400 ", 0), 0U) << answer;
  EXPECT_TRUE(closed_by_server(bad));
  send(good, "GET /hello HTTP/1.1\r\n\r\n");
  EXPECT_EQ(read_response(good, pending).rfind("HTTP/1.1 200 OK", 0), 0U);
}

TEST_F(HttpServerTest, AtTheConnectionCapTheConnectionWaitingLongestMakesRoom) {
  HttpServerLimits limits;
  limits.max_connections = 2;
  start(limits);
  tcp::socket first = connect();
  tcp::socket second = connect();
  std::string pending;
  // Both are served (so the server has counted them), first before second.
  send(first, "GET /hello HTTP/1.1\r\n\r\n");
  ASSERT_EQ(read_response(first, pending).rfind("HTTP/1.1 200", 0), 0U);
  send(second, "GET /hello HTTP/1.1\r\n\r\n");
  ASSERT_EQ(read_response(second, pending).rfind("HTTP/1.1 200", 0), 0U);
  tcp::socket third = connect();
  send(third, "GET /hello HTTP/1.1\r\n\r\n");
  EXPECT_EQ(read_response(third, pending).rfind("HTTP/1.1 200", 0), 0U);
  EXPECT_TRUE(closed_by_server(first)) << "the one idle longest made room";
  send(second, "GET /hello HTTP/1.1\r\n\r\n");
  EXPECT_EQ(read_response(second, pending).rfind("HTTP/1.1 200", 0), 0U);
}

TEST_F(HttpServerTest, OneAddressAtItsCapMakesRoomAmongItsOwnConnectionsOnly) {
  HttpServerLimits limits;
  limits.max_connections = 10;
  limits.max_connections_per_address = 2;
  start(limits);
  std::string pending;
  tcp::socket other = connect_from("127.0.0.2");
  send(other, "GET /hello HTTP/1.1\r\n\r\n");
  ASSERT_EQ(read_response(other, pending).rfind("HTTP/1.1 200", 0), 0U);
  tcp::socket first = connect();
  send(first, "GET /hello HTTP/1.1\r\n\r\n");
  ASSERT_EQ(read_response(first, pending).rfind("HTTP/1.1 200", 0), 0U);
  tcp::socket second = connect();
  send(second, "GET /hello HTTP/1.1\r\n\r\n");
  ASSERT_EQ(read_response(second, pending).rfind("HTTP/1.1 200", 0), 0U);
  tcp::socket third = connect();  // the third from 127.0.0.1
  send(third, "GET /hello HTTP/1.1\r\n\r\n");
  EXPECT_EQ(read_response(third, pending).rfind("HTTP/1.1 200", 0), 0U);
  EXPECT_TRUE(closed_by_server(first));
  send(other, "GET /hello HTTP/1.1\r\n\r\n");
  EXPECT_EQ(read_response(other, pending).rfind("HTTP/1.1 200", 0), 0U)
      << "the other address's older connection stays";
}

TEST_F(HttpServerTest, WhenEveryConnectionIsBusyAnsweringANewOneGets503) {
  HttpServerLimits limits;
  limits.max_connections = 1;
  start(limits);
  tcp::socket stuck = connect();
  // An answer far larger than the socket buffers, never read: the server stays writing it.
  send(stuck, "GET /big HTTP/1.1\r\n\r\n");
  std::string answer;
  std::string pending;
  for (int attempt = 0; attempt < 50; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    tcp::socket again = connect();
    send(again, "GET /hello HTTP/1.1\r\n\r\n");
    answer = read_response(again, pending);
    if (answer.rfind("HTTP/1.1 503 ", 0) == 0) break;
  }
  EXPECT_EQ(answer.rfind("HTTP/1.1 503 ", 0), 0U) << answer;
  EXPECT_NE(answer.find("--http-max-connections"), std::string::npos);
}

TEST_F(HttpServerTest, IdleConnectionIsClosedAfterTheIdleTimeout) {
  HttpServerLimits limits;
  limits.idle_timeout = std::chrono::milliseconds(200);
  start(limits);
  tcp::socket idle = connect();
  const auto started = std::chrono::steady_clock::now();
  EXPECT_TRUE(closed_by_server(idle));
  EXPECT_GE(std::chrono::steady_clock::now() - started, std::chrono::milliseconds(150));
  // A request begun and never finished is closed too.
  tcp::socket slow = connect();
  send(slow, "GET /hello HTTP/1.1\r\nX-A: ");
  EXPECT_TRUE(closed_by_server(slow));
}

TEST_F(HttpServerTest, StreamGetsEventStreamHeadersThenWhatTheRouteSends) {
  start();
  tcp::socket socket = connect();
  send(socket, "GET /stream HTTP/1.1\r\n\r\n");
  std::string received;
  std::array<char, 4096> chunk{};
  while (received.find("data: first\n\n") == std::string::npos) {
    std::error_code error;
    const std::size_t n = socket.read_some(asio::buffer(chunk), error);
    ASSERT_FALSE(error) << error.message() << "; got " << received;
    received.append(chunk.data(), n);
  }
  EXPECT_EQ(received.rfind("HTTP/1.1 200 OK\r\n", 0), 0U);
  EXPECT_NE(received.find("Content-Type: text/event-stream\r\n"), std::string::npos);
  EXPECT_NE(received.find("Cache-Control: no-cache\r\n"), std::string::npos);
  // The route's later sends arrive too; closing the client closes the stream.
  asio::post(io_, [this] { stream_->send("data: second\n\n"); });
  while (received.find("data: second\n\n") == std::string::npos) {
    std::error_code error;
    const std::size_t n = socket.read_some(asio::buffer(chunk), error);
    ASSERT_FALSE(error) << error.message();
    received.append(chunk.data(), n);
  }
  socket.close();
  bool closed = false;
  for (int attempt = 0; attempt < 100 && !closed; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::promise<bool> seen;
    asio::post(io_, [&] { seen.set_value(stream_->closed()); });
    closed = seen.get_future().get();
  }
  EXPECT_TRUE(closed);
}

TEST_F(HttpServerTest, StreamOverItsQueueBoundIsClosed) {
  HttpServerLimits limits;
  limits.max_stream_queue_bytes = 1024;
  start(limits);
  tcp::socket socket = connect();
  send(socket, "GET /flood HTTP/1.1\r\n\r\n");
  EXPECT_TRUE(closed_by_server(socket));
  std::promise<std::pair<bool, bool>> seen;
  asio::post(io_, [&] { seen.set_value({flood_accepted_, stream_->closed()}); });
  const auto [accepted, closed] = seen.get_future().get();
  EXPECT_FALSE(accepted);
  EXPECT_TRUE(closed);
}

}  // namespace
}  // namespace kgroups::broker::http
