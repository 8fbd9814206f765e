// SPDX-License-Identifier: Apache-2.0
//
// Golden bytes: decodes every request frame recorded from the real clients
// (testdata/client_frames.txt, made by testdata/capture_frames.py; and
// testdata/node_rdkafka_frames.txt, made by testdata/capture_node_rdkafka_frames.py: today's
// librdkafka, flexible versions and the KIP-848 consumer-group protocol) and checks that
// each decodes completely and re-encodes to the identical bytes, plus spot checks of what
// the clients are known to send.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "protocol/batch_records.h"
#include "protocol/messages/recorded_frames.h"
#include "protocol/messages/request_types.h"
#include "protocol/record_batch.h"
#include "protocol/request_header.h"

namespace kgroups::protocol {
namespace {

using ClientFrame = RecordedFrame;

const std::vector<ClientFrame>& frames() {
  static const std::vector<ClientFrame> kLoaded = load_recorded_frames("client_frames.txt");
  return kLoaded;
}

const std::vector<ClientFrame>& node_rdkafka_frames() {
  static const std::vector<ClientFrame> kLoaded = load_recorded_frames("node_rdkafka_frames.txt");
  return kLoaded;
}

// Every recorded frame, of every client.
const std::vector<ClientFrame>& all_frames() {
  static const std::vector<ClientFrame> kAll = [] {
    std::vector<ClientFrame> all = frames();
    all.insert(all.end(), node_rdkafka_frames().begin(), node_rdkafka_frames().end());
    return all;
  }();
  return kAll;
}

// librdkafka 2.12 asks for all topics with Metadata v9+ by leaving a 4-byte zero where the
// compact array's length goes (its rd_kafka_MetadataRequest0 reserves an int32 for the count
// and rewrites it only for a list): Kafka reads the first zero as a null array and the next
// bytes as the rest of the request, and ignores the 3 bytes left over; so does kgroupsd.
// Such frames decode with trailing bytes, and their prefixes may decode too.
bool is_librdkafka_all_topics_metadata(const ClientFrame& frame) {
  static const std::vector<std::uint8_t> kTail{0, 0, 0, 0, 1, 0, 0};
  return frame.client == "node_rdkafka" && frame.api_key == static_cast<int>(ApiKey::kMetadata) &&
         frame.api_version >= 9 && frame.bytes.size() > kTail.size() &&
         std::equal(kTail.rbegin(), kTail.rend(), frame.bytes.rbegin());
}

// The first node-rdkafka frame of (key, version), decoded; fails the test if there is none.
template <class Request>
Request first_node_rdkafka(ApiKey key, int version) {
  for (const ClientFrame& frame : node_rdkafka_frames()) {
    if (frame.api_key != static_cast<int>(key) || frame.api_version != version) continue;
    RequestHeader header;
    Result<Request> request = decode_frame<Request>(frame, header);
    EXPECT_TRUE(request.has_value());
    if (request) return *request;
  }
  ADD_FAILURE() << "no node-rdkafka frame of key " << static_cast<int>(key) << " v" << version;
  return Request{};
}

TEST(ClientFrames, AllFourClientsAreRecorded) {
  std::set<std::string> clients;
  for (const ClientFrame& frame : frames()) clients.insert(frame.client);
  EXPECT_EQ(clients, (std::set<std::string>{"confluent_kafka", "kafka_python", "kafkajs", "kcat"}));
  EXPECT_GE(frames().size(), 50u);
}

TEST(ClientFrames, EveryFrameDecodesFullyAndReencodesIdentically) {
  for (const ClientFrame& frame : all_frames()) {
    if (is_librdkafka_all_topics_metadata(frame)) continue;  // its own test below
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
  for (const ClientFrame& frame : all_frames()) {
    if (is_librdkafka_all_topics_metadata(frame)) continue;  // ends in bytes nobody reads
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

TEST(NodeRdkafkaFrames, TodaysLibrdkafkaSpeaksFlexibleVersionsAndKip848) {
  std::set<std::pair<int, int>> kinds;
  for (const ClientFrame& frame : node_rdkafka_frames()) {
    EXPECT_EQ(frame.client, "node_rdkafka");
    kinds.emplace(frame.api_key, frame.api_version);
  }
  // Flexible versions of the data path and groups, and the consumer-group heartbeat.
  for (const std::pair<int, int>& kind :
       {std::pair{3, 12}, std::pair{1, 16}, std::pair{0, 10}, std::pair{8, 9}, std::pair{9, 9},
        std::pair{68, 1}, std::pair{11, 5}}) {
    EXPECT_TRUE(kinds.contains(kind)) << "key " << kind.first << " v" << kind.second;
  }
  const auto versions = first_node_rdkafka<ApiVersionsRequest>(ApiKey::kApiVersions, 3);
  EXPECT_EQ(versions.client_software_name, "librdkafka");
  EXPECT_EQ(versions.client_software_version, "2.12.0");
}

TEST(NodeRdkafkaFrames, AllTopicsMetadataIsReadAsKafkaReadsIt) {
  int seen = 0;
  for (const ClientFrame& frame : node_rdkafka_frames()) {
    if (!is_librdkafka_all_topics_metadata(frame)) continue;
    ++seen;
    WireReader reader(frame.bytes);
    Result<RequestHeader> header = decode_request_header(reader);
    ASSERT_TRUE(header);
    Result<MetadataRequest> request = MetadataRequest::decode(reader, header->api_version);
    ASSERT_TRUE(request) << error_name(request.error());
    EXPECT_FALSE(request->topics.has_value());  // null: every topic
    EXPECT_FALSE(request->allow_auto_topic_creation);
    EXPECT_EQ(reader.remaining(), 3u);  // librdkafka's intended bool, bool, tags: ignored
  }
  EXPECT_EQ(seen, 1);
}

TEST(NodeRdkafkaFrames, ConsumerGroupHeartbeatJoinsWithItsOwnMemberIdAndAnEmptyRegex) {
  const auto join =
      first_node_rdkafka<ConsumerGroupHeartbeatRequest>(ApiKey::kConsumerGroupHeartbeat, 1);
  EXPECT_EQ(join.group_id, "capture-consumer-group");
  EXPECT_EQ(join.member_epoch, 0);
  EXPECT_EQ(join.member_id.size(), 22u);  // v1: the client's UUID, base64 without padding
  ASSERT_TRUE(join.subscribed_topic_names.has_value());
  EXPECT_EQ(*join.subscribed_topic_names, std::vector<std::string_view>{"capture"});
  // librdkafka 2.12 sends "" where it means "no regex": the coordinator must accept it.
  ASSERT_TRUE(join.subscribed_topic_regex.has_value());
  EXPECT_EQ(*join.subscribed_topic_regex, "");
  ASSERT_TRUE(join.topic_partitions.has_value());
  EXPECT_TRUE(join.topic_partitions->empty());
  EXPECT_FALSE(join.instance_id.has_value());
}

TEST(NodeRdkafkaFrames, StaticMemberJoinsWithItsInstanceId) {
  const auto join = first_node_rdkafka<JoinGroupRequest>(ApiKey::kJoinGroup, 5);
  EXPECT_EQ(join.group_id, "capture-group");
  ASSERT_TRUE(join.group_instance_id.has_value());
  EXPECT_EQ(*join.group_instance_id, "capture-static-1");
}

TEST(NodeRdkafkaFrames, FetchNamesTopicsByIdAndProduceByName) {
  const auto fetch = first_node_rdkafka<FetchRequest>(ApiKey::kFetch, 16);
  ASSERT_FALSE(fetch.topics.empty());
  EXPECT_NE(fetch.topics[0].topic_id, Uuid{});
  const auto produce = first_node_rdkafka<ProduceRequest>(ApiKey::kProduce, 10);
  ASSERT_EQ(produce.topic_data.size(), 1u);
  EXPECT_EQ(produce.topic_data[0].name, "capture");
}

}  // namespace
}  // namespace kgroups::protocol
