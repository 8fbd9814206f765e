// SPDX-License-Identifier: Apache-2.0
#include "kafka_client/broker_connection.h"

#include <asio/connect.hpp>
#include <asio/read.hpp>
#include <asio/write.hpp>
#include <string_view>

#include "protocol/error_code.h"
#include "protocol/messages/api_versions.h"

namespace kgroups::cli {
namespace {

// A response larger than this is refused rather than buffered (Metadata of a large cluster
// stays far below it).
constexpr std::uint32_t kMaxResponseBytes = 256u << 20;

// The software name and version sent in ApiVersions v3+ (KIP-511).
constexpr std::string_view kSoftwareName = "kgroups-cli";
constexpr std::string_view kSoftwareVersion = KGROUPS_VERSION;

}  // namespace

BrokerConnection::BrokerConnection(BrokerAddress address, Deadline deadline)
    : address_(std::move(address)), deadline_(deadline), socket_(io_) {
  connect();
  negotiate_versions();
}

void BrokerConnection::close() {
  asio::error_code ignored;
  socket_.close(ignored);
}

void BrokerConnection::wait_for(asio::error_code& result, const std::string& what) {
  io_.restart();
  io_.run_until(deadline_);
  if (result == asio::error::would_block) {
    close();
    io_.restart();
    io_.run();  // lets the cancelled operation finish
    throw KafkaClientError(what + " " + address_.to_string() + ": timed out (--timeout-ms)");
  }
  if (result) {
    close();
    throw KafkaClientError(what + " " + address_.to_string() + ": " + result.message());
  }
}

void BrokerConnection::connect() {
  asio::ip::tcp::resolver resolver(io_);
  asio::error_code result = asio::error::would_block;
  asio::ip::tcp::resolver::results_type endpoints;
  resolver.async_resolve(address_.host, std::to_string(address_.port),
                         [&](const asio::error_code& error, auto found) {
                           result = error;
                           endpoints = std::move(found);
                         });
  wait_for(result, "cannot resolve");
  result = asio::error::would_block;
  asio::async_connect(socket_, endpoints,
                      [&](const asio::error_code& error, const auto&) { result = error; });
  try {
    wait_for(result, "cannot connect to");
  } catch (const KafkaClientError& error) {
    if (result == asio::error::connection_refused) {
      throw KafkaClientError(std::string(error.what()) + " (is a Kafka broker running there?)");
    }
    throw;
  }
  socket_.set_option(asio::ip::tcp::no_delay(true));
}

void BrokerConnection::negotiate_versions() {
  using protocol::ApiVersionsRequest;
  using protocol::ApiVersionsResponse;
  std::int16_t version = ApiVersionsRequest::kMaxVersion;
  // A broker that does not know the version answers UNSUPPORTED_VERSION in the v0 layout,
  // listing the ApiVersions versions it does serve; ask again with the highest of them.
  for (int attempt = 0; attempt < 2; ++attempt) {
    ApiVersionsRequest request;
    request.client_software_name = kSoftwareName;
    request.client_software_version = kSoftwareVersion;
    std::vector<std::uint8_t> frame;
    const std::int32_t correlation_id = next_correlation_id_++;
    protocol::encode_request_frame(
        frame,
        protocol::RequestHeader{protocol::ApiKey::kApiVersions, version, correlation_id, kClientId},
        request);
    const std::vector<std::uint8_t> body =
        exchange(frame, protocol::ApiKey::kApiVersions, version, correlation_id);
    protocol::WireReader peek(body);
    const auto error = static_cast<protocol::ErrorCode>(peek.read_int16());
    const std::int16_t layout =
        error == protocol::ErrorCode::kUnsupportedVersion ? std::int16_t{0} : version;
    protocol::WireReader reader(body);
    protocol::Result<ApiVersionsResponse> response = ApiVersionsResponse::decode(reader, layout);
    if (!response) throw undecodable(protocol::ApiKey::kApiVersions, layout);
    if (response->error_code == protocol::ErrorCode::kUnsupportedVersion) {
      for (const auto& api : response->api_keys) {
        if (api.api_key == static_cast<std::int16_t>(protocol::ApiKey::kApiVersions)) {
          version = std::min<std::int16_t>(api.max_version, ApiVersionsRequest::kMaxVersion);
        }
      }
      continue;
    }
    if (response->error_code != protocol::ErrorCode::kNone) {
      throw KafkaClientError("broker " + address_.to_string() + " refused ApiVersions: " +
                             std::string(protocol::error_name(response->error_code)));
    }
    for (const auto& api : response->api_keys) {
      versions_[api.api_key] = {api.min_version, api.max_version};
    }
    return;
  }
  throw KafkaClientError("broker " + address_.to_string() +
                         " supports no ApiVersions version this client knows");
}

std::int16_t BrokerConnection::version_for(protocol::ApiKey key, std::int16_t codec_min,
                                           std::int16_t codec_max) const {
  const auto served = versions_.find(static_cast<std::int16_t>(key));
  const std::string api(protocol::api_name(key));
  if (served == versions_.end()) {
    throw KafkaClientError("broker " + address_.to_string() + " does not serve " + api);
  }
  const auto [broker_min, broker_max] = served->second;
  const std::int16_t version = std::min(broker_max, codec_max);
  if (version < std::max(broker_min, codec_min)) {
    throw KafkaClientError("broker " + address_.to_string() + " serves " + api + " v" +
                           std::to_string(broker_min) + "-" + std::to_string(broker_max) +
                           ", this client v" + std::to_string(codec_min) + "-" +
                           std::to_string(codec_max));
  }
  return version;
}

std::vector<std::uint8_t> BrokerConnection::exchange(const std::vector<std::uint8_t>& frame,
                                                     protocol::ApiKey key, std::int16_t version,
                                                     std::int32_t correlation_id) {
  const std::string api(protocol::api_name(key));
  asio::error_code result = asio::error::would_block;
  asio::async_write(socket_, asio::buffer(frame),
                    [&](const asio::error_code& error, std::size_t) { result = error; });
  wait_for(result, "cannot send " + api + " to");

  std::uint8_t size_bytes[4];
  result = asio::error::would_block;
  asio::async_read(socket_, asio::buffer(size_bytes),
                   [&](const asio::error_code& error, std::size_t) { result = error; });
  wait_for(result, "no " + api + " response from");
  protocol::WireReader size_reader(size_bytes);
  const std::uint32_t size = size_reader.read_uint32();
  if (size < 4 || size > kMaxResponseBytes) {
    close();
    throw KafkaClientError("broker " + address_.to_string() + " sent a " + api + " response of " +
                           std::to_string(size) + " bytes");
  }
  std::vector<std::uint8_t> response(size);
  result = asio::error::would_block;
  asio::async_read(socket_, asio::buffer(response),
                   [&](const asio::error_code& error, std::size_t) { result = error; });
  wait_for(result, "no " + api + " response from");

  protocol::WireReader header(response);
  const std::int32_t answered = header.read_int32();
  if (protocol::is_flexible_response(key, version)) header.skip_tagged_fields();
  if (!header.ok() || answered != correlation_id) {
    close();
    throw KafkaClientError("broker " + address_.to_string() + " answered " + api +
                           " with correlation id " + std::to_string(answered) + ", expected " +
                           std::to_string(correlation_id));
  }
  const std::size_t header_bytes = response.size() - header.remaining();
  response.erase(response.begin(), response.begin() + static_cast<std::ptrdiff_t>(header_bytes));
  return response;
}

KafkaClientError BrokerConnection::undecodable(protocol::ApiKey key, std::int16_t version) const {
  return KafkaClientError("broker " + address_.to_string() + " sent a " +
                          std::string(protocol::api_name(key)) + " v" + std::to_string(version) +
                          " response this client cannot decode");
}

}  // namespace kgroups::cli
