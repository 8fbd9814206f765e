// SPDX-License-Identifier: Apache-2.0
//
// Latency and close faults as a client sees them: kgroupsd's TcpServer on loopback (port 0)
// in a thread, raw ApiVersions frames from blocking sockets in the test.
#include <gtest/gtest.h>

#include <asio/connect.hpp>
#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/read.hpp>
#include <asio/write.hpp>
#include <chrono>
#include <thread>
#include <vector>

#include "broker/http/fault_json.h"
#include "broker/net/tcp_server.h"
#include "broker/node/broker.h"
#include "protocol/request_header.h"
#include "protocol/wire_writer.h"

namespace kgroups::broker {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr std::int64_t kMachineBytes = std::int64_t{8} << 30;

// An ApiVersions v0 request frame (an empty body) with `correlation_id`.
std::vector<std::uint8_t> api_versions_frame(std::int32_t correlation_id) {
  std::vector<std::uint8_t> frame;
  protocol::WireWriter writer(frame);
  const std::size_t size = writer.reserve_int32();
  protocol::encode_request_header(writer, {.api_key = protocol::ApiKey::kApiVersions,
                                           .api_version = 0,
                                           .correlation_id = correlation_id,
                                           .client_id = "faults-test"});
  writer.patch_int32(size, static_cast<std::int32_t>(frame.size() - 4));
  return frame;
}

std::int32_t read_int32(asio::ip::tcp::socket& socket) {
  std::uint8_t bytes[4];
  asio::read(socket, asio::buffer(bytes));
  return static_cast<std::int32_t>((std::uint32_t{bytes[0]} << 24) |
                                   (std::uint32_t{bytes[1]} << 16) |
                                   (std::uint32_t{bytes[2]} << 8) | std::uint32_t{bytes[3]});
}

// Reads one response frame; returns its correlation id.
std::int32_t read_response(asio::ip::tcp::socket& socket) {
  const std::int32_t size = read_int32(socket);
  const std::int32_t correlation_id = read_int32(socket);
  std::vector<std::uint8_t> rest(static_cast<std::size_t>(size) - 4);
  asio::read(socket, asio::buffer(rest));
  return correlation_id;
}

class ConnectionFaults : public ::testing::Test {
 protected:
  // Arms `faults` (before the broker's thread starts: the broker is single-threaded), then
  // serves on loopback.
  void start(std::initializer_list<std::string_view> faults) {
    for (const std::string_view json : faults) broker_.faults().arm(fault_from_json(json));
    server_.emplace(io_, broker_, "127.0.0.1", 0);
    server_->start();
    thread_ = std::thread([this] { io_.run_for(std::chrono::seconds(20)); });
  }
  ~ConnectionFaults() override {
    io_.stop();
    if (thread_.joinable()) thread_.join();
  }

  asio::ip::tcp::socket connect() {
    asio::ip::tcp::socket socket(client_io_);
    socket.connect({asio::ip::make_address("127.0.0.1"), server_->port()});
    return socket;
  }

  Broker broker_{BrokerConfig{}, kMachineBytes};  // outlives the connections in io_
  asio::io_context io_;
  asio::io_context client_io_;
  std::optional<TcpServer> server_;
  std::thread thread_;
};

TEST_F(ConnectionFaults, LatencyDelaysTheResponseKeepsOrderAndDoesNotHoldOtherConnections) {
  start({R"({"api": "ApiVersions", "latency_ms": 400})"});
  asio::ip::tcp::socket slow = connect();
  asio::ip::tcp::socket other = connect();
  const auto sent = Clock::now();
  asio::write(slow, asio::buffer(api_versions_frame(1)));
  asio::write(slow, asio::buffer(api_versions_frame(2)));  // pipelined behind the slow one
  std::this_thread::sleep_for(milliseconds(50));
  const auto other_sent = Clock::now();
  asio::write(other, asio::buffer(api_versions_frame(3)));
  EXPECT_EQ(read_response(other), 3);
  EXPECT_LT(Clock::now() - other_sent, milliseconds(300));  // not behind the delayed one
  EXPECT_EQ(read_response(slow), 1);
  EXPECT_GE(Clock::now() - sent, milliseconds(400));
  EXPECT_EQ(read_response(slow), 2);  // in order, after the delayed one
}

TEST_F(ConnectionFaults, CloseClosesTheConnectionInsteadOfAnsweringAndUsesTheFault) {
  start({R"({"api": "ApiVersions", "close": true})"});
  asio::ip::tcp::socket closed = connect();
  asio::write(closed, asio::buffer(api_versions_frame(1)));
  std::uint8_t byte = 0;
  std::error_code error;
  asio::read(closed, asio::buffer(&byte, 1), error);
  EXPECT_EQ(error, asio::error::eof);
  // Used up: a new connection is answered.
  asio::ip::tcp::socket served = connect();
  asio::write(served, asio::buffer(api_versions_frame(2)));
  EXPECT_EQ(read_response(served), 2);
}

}  // namespace
}  // namespace kgroups::broker
