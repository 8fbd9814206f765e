// SPDX-License-Identifier: Apache-2.0
//
// BrokerConnection: one blocking TCP connection to one Kafka broker, for the CLI. Opening it
// connects and negotiates versions with ApiVersions; call() then sends one request at the
// highest version both the broker and this codec (src/protocol, generated from the schemas)
// support, waits for its response and decodes it. Every step is bounded by the deadline the
// connection was opened with: the whole command shares one time budget (--timeout-ms).
// Failures throw KafkaClientError naming the broker's address; the connection is then closed.
// Not thread-safe: one caller at a time.
#pragma once

#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "kafka_client/broker_address.h"
#include "kafka_client/kafka_client_error.h"
#include "protocol/api_key.h"
#include "protocol/frame.h"
#include "protocol/request_header.h"
#include "protocol/wire_reader.h"

namespace kgroups::cli {

using Deadline = std::chrono::steady_clock::time_point;

class BrokerConnection {
 public:
  // Connects to `address` and asks it for its API versions. Throws KafkaClientError when the
  // address does not resolve, refuses the connection, or does not answer by `deadline`.
  BrokerConnection(BrokerAddress address, Deadline deadline);
  BrokerConnection(const BrokerConnection&) = delete;
  BrokerConnection& operator=(const BrokerConnection&) = delete;

  // The highest version of `key` the broker advertised that lies in [codec_min, codec_max].
  // Throws KafkaClientError when the broker does not serve the API or no version overlaps.
  [[nodiscard]] std::int16_t version_for(protocol::ApiKey key, std::int16_t codec_min,
                                         std::int16_t codec_max) const;
  template <class Request>
  [[nodiscard]] std::int16_t version_for() const {
    return version_for(Request::kApiKey, Request::kMinVersion, Request::kMaxVersion);
  }

  // Sends `request` at version_for<Request>() and returns the decoded response. Throws
  // KafkaClientError on a timeout, a closed connection or a response the codec rejects.
  // Error codes inside the response are the caller's to read.
  template <class Response, class Request>
  Response call(const Request& request) {
    static_assert(Response::kApiKey == Request::kApiKey, "a response of another API");
    const std::int16_t version = version_for<Request>();
    std::vector<std::uint8_t> frame;
    const std::int32_t correlation_id = next_correlation_id_++;
    protocol::encode_request_frame(
        frame, protocol::RequestHeader{Request::kApiKey, version, correlation_id, kClientId},
        request);
    const std::vector<std::uint8_t> body =
        exchange(frame, Request::kApiKey, version, correlation_id);
    protocol::WireReader reader(body);
    protocol::Result<Response> response = Response::decode(reader, version);
    if (!response) throw undecodable(Request::kApiKey, version);
    return std::move(*response);
  }

  // As call(), at `version` (within version_for()'s range for the API), keeping the
  // response body in `body`: views in the response (Fetch's records) point into it.
  template <class Response, class Request>
  Response call_keeping_body(const Request& request, std::int16_t version,
                             std::vector<std::uint8_t>& body) {
    static_assert(Response::kApiKey == Request::kApiKey, "a response of another API");
    std::vector<std::uint8_t> frame;
    const std::int32_t correlation_id = next_correlation_id_++;
    protocol::encode_request_frame(
        frame, protocol::RequestHeader{Request::kApiKey, version, correlation_id, kClientId},
        request);
    body = exchange(frame, Request::kApiKey, version, correlation_id);
    protocol::WireReader reader(body);
    protocol::Result<Response> response = Response::decode(reader, version);
    if (!response) throw undecodable(Request::kApiKey, version);
    return std::move(*response);
  }

  [[nodiscard]] const BrokerAddress& address() const { return address_; }

  // The client id every request carries.
  static constexpr std::string_view kClientId = "kgroups-cli";

 private:
  // Writes `frame`, reads the response frame with `correlation_id` and returns its body,
  // after the response header.
  std::vector<std::uint8_t> exchange(const std::vector<std::uint8_t>& frame, protocol::ApiKey key,
                                     std::int16_t version, std::int32_t correlation_id);
  void connect();
  void negotiate_versions();
  // Closes the socket, ignoring errors; later calls then fail.
  void close();
  // Runs the started asynchronous operation until it completes or the deadline passes;
  // throws KafkaClientError("<what> ...") on either failure.
  void wait_for(asio::error_code& result, const std::string& what);
  [[nodiscard]] KafkaClientError undecodable(protocol::ApiKey key, std::int16_t version) const;

  BrokerAddress address_;
  Deadline deadline_;
  asio::io_context io_;
  asio::ip::tcp::socket socket_;
  std::int32_t next_correlation_id_ = 1;
  std::map<std::int16_t, std::pair<std::int16_t, std::int16_t>> versions_;  // key -> min, max
};

}  // namespace kgroups::cli
