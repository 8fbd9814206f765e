// SPDX-License-Identifier: Apache-2.0
//
// Golden response bytes from a reference implementation: the answers of librdkafka's mock
// cluster to the recorded client frames (testdata/mock_responses.txt, made by
// testdata/capture_mock_responses.py). Each must decode completely with our response decoder
// and re-encode to the same bytes, which checks our encoders against another broker's.

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "protocol/messages/recorded_frames.h"
#include "protocol/messages/request_types.h"
#include "protocol/record_batch.h"
#include "protocol/request_header.h"

namespace kgroups::protocol {
namespace {

// A recorded response: bytes are the correlation id and the body (response header v0).
using MockResponse = RecordedFrame;

std::vector<MockResponse> load_responses() { return load_recorded_frames("mock_responses.txt"); }

const std::vector<MockResponse>& responses() {
  static const std::vector<MockResponse> kLoaded = load_responses();
  return kLoaded;
}

TEST(MockResponses, CoverTheSetPApis) {
  std::set<int> keys;
  for (const MockResponse& response : responses()) keys.insert(response.api_key);
  for (const ApiKey key :
       {ApiKey::kProduce, ApiKey::kFetch, ApiKey::kListOffsets, ApiKey::kMetadata,
        ApiKey::kOffsetCommit, ApiKey::kOffsetFetch, ApiKey::kFindCoordinator, ApiKey::kHeartbeat,
        ApiKey::kLeaveGroup, ApiKey::kSyncGroup, ApiKey::kApiVersions}) {
    EXPECT_TRUE(keys.count(static_cast<int>(key))) << api_name(key);
  }
}

TEST(MockResponses, EveryResponseDecodesFullyAndReencodesIdentically) {
  for (const MockResponse& golden : responses()) {
    SCOPED_TRACE(golden.client + " " + std::string(api_name(static_cast<ApiKey>(golden.api_key))) +
                 " v" + std::to_string(golden.api_version));
    const bool known = visit_response_type(static_cast<ApiKey>(golden.api_key), [&](auto* tag) {
      using Response = std::remove_pointer_t<decltype(tag)>;
      WireReader reader(golden.bytes);
      const std::int32_t correlation_id = reader.read_int32();
      const auto version = static_cast<std::int16_t>(golden.api_version);
      Result<Response> response = Response::decode(reader, version);
      ASSERT_TRUE(response.has_value()) << error_name(response.error());
      EXPECT_EQ(reader.remaining(), 0u);
      std::vector<std::uint8_t> reencoded;
      WireWriter writer(reencoded);
      encode_response_header(writer, correlation_id);
      response->encode(writer, version);
      std::vector<std::uint8_t> expected = golden.bytes;
      // The mock sends a null SyncGroup assignment with errors; the field is not nullable in
      // Kafka's schema, so we read it as empty and write it as empty.
      if (golden.api_key == static_cast<int>(ApiKey::kSyncGroup) &&
          std::vector<std::uint8_t>(expected.end() - 4, expected.end()) ==
              std::vector<std::uint8_t>{0xFF, 0xFF, 0xFF, 0xFF}) {
        std::fill(expected.end() - 4, expected.end(), 0);
      }
      EXPECT_EQ(reencoded, expected);
    });
    EXPECT_TRUE(known);
  }
}

TEST(MockResponses, FetchReturnsTheProducedBatchWithItsOffset) {
  int fetches = 0;
  for (const MockResponse& golden : responses()) {
    if (golden.api_key != static_cast<int>(ApiKey::kFetch)) continue;
    ++fetches;
    WireReader reader(golden.bytes);
    reader.read_int32();
    Result<FetchResponse> response = FetchResponse::decode(reader, 4);
    ASSERT_TRUE(response);
    ASSERT_EQ(response->responses.size(), 1u);
    const FetchResponse::Partition& partition = response->responses[0].partitions.at(0);
    EXPECT_EQ(partition.error_code, ErrorCode::kNone);
    EXPECT_GT(partition.high_watermark, 0);
    ASSERT_EQ(partition.records.size(), 1u);
    auto batches = split_record_batches(partition.records[0]);
    ASSERT_TRUE(batches) << error_name(batches.error());
    EXPECT_GE(batches->size(), 1u);
  }
  EXPECT_GE(fetches, 3);
}

}  // namespace
}  // namespace kgroups::protocol
