// SPDX-License-Identifier: Apache-2.0
//
// Golden bytes: decodes every request frame recorded from the real clients
// (testdata/client_frames.txt, made by testdata/capture_frames.py) and checks that each
// decodes completely and re-encodes to the identical bytes, plus spot checks of what the
// clients are known to send.

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "protocol/batch_records.h"
#include "protocol/messages/request_types.h"
#include "protocol/record_batch.h"
#include "protocol/request_header.h"

namespace kgroups::protocol {
namespace {

struct ClientFrame {
  std::string client;
  int api_key = 0;
  int api_version = 0;
  std::vector<std::uint8_t> bytes;
};

std::vector<ClientFrame> load_frames() {
  std::ifstream file(std::string(KGROUPS_PROTOCOL_TESTDATA) + "/client_frames.txt");
  std::vector<ClientFrame> frames;
  std::string line;
  while (std::getline(file, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    ClientFrame frame;
    std::string hex;
    fields >> frame.client >> frame.api_key >> frame.api_version >> hex;
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
      frame.bytes.push_back(static_cast<std::uint8_t>(std::stoi(hex.substr(i, 2), nullptr, 16)));
    }
    frames.push_back(std::move(frame));
  }
  return frames;
}

const std::vector<ClientFrame>& frames() {
  static const std::vector<ClientFrame> kLoaded = load_frames();
  return kLoaded;
}

// Decodes header + body of `frame` with the decoder of `Request`.
template <class Request>
Result<Request> decode_frame(const ClientFrame& frame, RequestHeader& header) {
  WireReader reader(frame.bytes);
  Result<RequestHeader> decoded_header = decode_request_header(reader);
  if (!decoded_header) return decoded_header.error();
  header = *decoded_header;
  Result<Request> request = Request::decode(reader, header.api_version);
  if (request && reader.remaining() != 0) return ErrorCode::kInvalidRequest;
  return request;
}

TEST(ClientFrames, AllFourClientsAreRecorded) {
  std::set<std::string> clients;
  for (const ClientFrame& frame : frames()) clients.insert(frame.client);
  EXPECT_EQ(clients, (std::set<std::string>{"confluent_kafka", "kafka_python", "kafkajs", "kcat"}));
  EXPECT_GE(frames().size(), 50u);
}

TEST(ClientFrames, EveryFrameDecodesFullyAndReencodesIdentically) {
  for (const ClientFrame& frame : frames()) {
    SCOPED_TRACE(frame.client + " key " + std::to_string(frame.api_key) + " v" +
                 std::to_string(frame.api_version));
    const bool known = visit_request_type(static_cast<ApiKey>(frame.api_key), [&](auto* tag) {
      using Request = std::remove_pointer_t<decltype(tag)>;
      RequestHeader header;
      Result<Request> request = decode_frame<Request>(frame, header);
      ASSERT_TRUE(request.has_value()) << error_name(request.error());
      EXPECT_EQ(static_cast<int>(header.api_key), frame.api_key);
      EXPECT_EQ(header.api_version, frame.api_version);
      std::vector<std::uint8_t> reencoded;
      WireWriter writer(reencoded);
      encode_request_header(writer, header);
      request->encode(writer, header.api_version);
      EXPECT_EQ(reencoded, frame.bytes);
    });
    EXPECT_TRUE(known);
  }
}

TEST(ClientFrames, ProducedBatchesCarryTheClientsRecord) {
  int produce_frames = 0;
  for (const ClientFrame& frame : frames()) {
    if (frame.api_key != static_cast<int>(ApiKey::kProduce)) continue;
    SCOPED_TRACE(frame.client);
    ++produce_frames;
    RequestHeader header;
    Result<ProduceRequest> request = decode_frame<ProduceRequest>(frame, header);
    ASSERT_TRUE(request);
    EXPECT_EQ(header.api_version, 3);
    ASSERT_EQ(request->topic_data.size(), 1u);
    EXPECT_EQ(request->topic_data[0].name, "capture");
    ASSERT_EQ(request->topic_data[0].partition_data.size(), 1u);
    const auto& records = request->topic_data[0].partition_data[0].records;
    ASSERT_TRUE(records.has_value());
    auto batches = split_record_batches(*records);
    ASSERT_TRUE(batches) << error_name(batches.error());
    ASSERT_EQ(batches->size(), 1u);
    EXPECT_EQ((*batches)[0].header.magic, 2);
    auto decoded = decode_batch_records((*batches)[0].bytes);
    ASSERT_TRUE(decoded) << error_name(decoded.error());
    ASSERT_EQ(decoded->size(), 1u);
    EXPECT_EQ((*decoded)[0].key, ByteView::of("key-1"));
    EXPECT_EQ((*decoded)[0].value, ByteView::of("value-1"));
  }
  EXPECT_EQ(produce_frames, 4);
}

TEST(ClientFrames, LibrdkafkaOpensWithFlexibleApiVersionsV3) {
  int seen = 0;
  for (const ClientFrame& frame : frames()) {
    if (frame.api_key != static_cast<int>(ApiKey::kApiVersions) || frame.api_version != 3) continue;
    ++seen;
    RequestHeader header;
    Result<ApiVersionsRequest> request = decode_frame<ApiVersionsRequest>(frame, header);
    ASSERT_TRUE(request);
    EXPECT_EQ(header.client_id, "rdkafka");
    const std::string_view version = request->client_software_version;
    EXPECT_TRUE(version.size() >= 5 && version.substr(version.size() - 5) == "2.0.2") << version;
    if (frame.client == "kcat") {
      EXPECT_EQ(request->client_software_name, "librdkafka");
    }
    if (frame.client == "confluent_kafka") {
      EXPECT_EQ(request->client_software_name, "confluent-kafka-python");
    }
  }
  EXPECT_GE(seen, 2);  // kcat and confluent-kafka
}

TEST(ClientFrames, ConsumersJoinWithTheirAssignors) {
  std::map<std::string, std::vector<std::string>> protocols_by_client;
  for (const ClientFrame& frame : frames()) {
    if (frame.api_key != static_cast<int>(ApiKey::kJoinGroup)) continue;
    RequestHeader header;
    Result<JoinGroupRequest> request = decode_frame<JoinGroupRequest>(frame, header);
    ASSERT_TRUE(request);
    EXPECT_EQ(header.api_version, 2);
    EXPECT_EQ(request->group_id, "capture-group");
    EXPECT_EQ(request->protocol_type, "consumer");
    auto& names = protocols_by_client[frame.client];
    names.clear();
    for (const auto& protocol : request->protocols) names.emplace_back(protocol.name);
  }
  EXPECT_EQ(protocols_by_client["kafkajs"], std::vector<std::string>{"RoundRobinAssigner"});
  EXPECT_EQ(protocols_by_client["kcat"], (std::vector<std::string>{"range", "roundrobin"}));
  EXPECT_EQ(protocols_by_client["kafka_python"], (std::vector<std::string>{"range", "roundrobin"}));
}

TEST(ClientFrames, KafkaPythonProbesWithMetadataV0) {
  bool seen = false;
  for (const ClientFrame& frame : frames()) {
    if (frame.client != "kafka_python" || frame.api_key != 3 || frame.api_version != 0) continue;
    seen = true;
    RequestHeader header;
    ASSERT_TRUE(decode_frame<MetadataRequest>(frame, header));
  }
  EXPECT_TRUE(seen);
}

TEST(ClientFrames, EveryTruncationOfEveryFrameIsRejectedWithoutCrashing) {
  for (const ClientFrame& frame : frames()) {
    for (std::size_t size = 0; size < frame.bytes.size(); ++size) {
      WireReader reader{std::span(frame.bytes).first(size)};
      Result<RequestHeader> header = decode_request_header(reader);
      if (!header) continue;
      visit_request_type(header->api_key, [&](auto* tag) {
        using Request = std::remove_pointer_t<decltype(tag)>;
        Result<Request> request = Request::decode(reader, header->api_version);
        // A prefix may only decode if the decoder simply ignored bytes it never reached,
        // which never happens for these frames: each ends with a field that is read.
        EXPECT_FALSE(request.has_value())
            << frame.client << " key " << frame.api_key << " prefix " << size;
      });
    }
  }
}

}  // namespace
}  // namespace kgroups::protocol
