// SPDX-License-Identifier: Apache-2.0
//
// call_handler(): for tests, one request driven as a connection drives it: the request encoded
// to bytes, its API-table handler run on an in-process Broker as if it came in on broker
// `node_id`'s listener, and the response decoded from the bytes the handler wrote. The handler
// runs on `io` (at most 5 s), so handlers that park wait for what `io` runs. Not thread-safe:
// call it from the thread that owns the broker. `auth` is the connection's identity (nullptr:
// User:ANONYMOUS), for tests of authorization.
#pragma once

#include <gtest/gtest.h>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/io_context.hpp>
#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "broker/handlers/api_table.h"
#include "broker/handlers/request_context.h"
#include "broker/node/broker.h"
#include "protocol/wire_reader.h"
#include "protocol/wire_writer.h"

namespace kgroups::broker {

template <class Response, class Request>
Response call_handler(Broker& broker, asio::io_context& io, const Request& request,
                      std::int16_t version, std::int32_t node_id = 0,
                      ConnectionAuth* auth = nullptr) {
  std::vector<std::uint8_t> body;
  protocol::WireWriter body_writer(body);
  request.encode(body_writer, version);
  protocol::WireReader reader(body);
  const protocol::RequestHeader header{.api_key = Request::kApiKey,
                                       .api_version = version,
                                       .correlation_id = 1,
                                       .client_id = "handler-test"};
  std::vector<std::uint8_t> out;
  protocol::WireWriter writer(out);
  RequestContext ctx{.broker = broker,
                     .header = header,
                     .body = reader,
                     .response = writer,
                     .peer = "test-peer",
                     .failure = {},
                     .pins = nullptr,
                     .node_id = node_id,
                     .listener = 0,
                     .auth = auth};
  std::optional<Reply> reply;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> { reply = co_await find_api(Request::kApiKey)->handler(ctx); },
      asio::detached);
  io.run_for(std::chrono::seconds(5));
  io.restart();
  EXPECT_EQ(reply, Reply::kSend);
  protocol::WireReader response_reader(out);
  auto response = Response::decode(response_reader, version);
  EXPECT_TRUE(response.has_value());
  return response ? *response : Response{};
}

}  // namespace kgroups::broker
