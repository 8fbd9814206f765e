// SPDX-License-Identifier: Apache-2.0
//
// A FetchResponse encoded by a splicing WireWriter (the records left out of the vector and
// listed as ranges of the stored batches) gives, with the ranges put back at their
// positions, exactly the bytes of the contiguous encoding, in every version and shape.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "protocol/messages/fetch.h"
#include "protocol/record_batch.h"
#include "protocol/record_batch_builder.h"
#include "protocol/wire_writer.h"

namespace kgroups::protocol {
namespace {

// A "segment": three batches stored back to back, as a log stores them.
struct StoredBatches {
  std::vector<std::uint8_t> bytes;
  std::vector<ByteView> batches;  // views into `bytes`

  explicit StoredBatches(int count) {
    std::vector<std::size_t> starts;
    for (int i = 0; i < count; ++i) {
      RecordBatchBuilder builder;
      builder.add(ByteView::of("key"),
                  ByteView::of(std::string(static_cast<std::size_t>(20 + i), 'v')), 7);
      std::vector<std::uint8_t> batch = builder.build();
      write_base_offset(batch, i);
      starts.push_back(bytes.size());
      bytes.insert(bytes.end(), batch.begin(), batch.end());
    }
    starts.push_back(bytes.size());
    for (int i = 0; i < count; ++i) {
      batches.emplace_back(bytes.data() + starts[i], starts[i + 1] - starts[i]);
    }
  }
};

FetchResponse::Partition partition(std::int16_t version, std::int32_t index,
                                   std::vector<ByteView> records) {
  FetchResponse::Partition out;
  out.partition_index = index;
  out.high_watermark = 3;
  out.last_stable_offset = 3;
  if (version >= 5) out.log_start_offset = 0;
  out.aborted_transactions = std::vector<FetchResponse::AbortedTransaction>{{4, 1}};
  out.records = std::move(records);
  return out;
}

// Several topics; partitions with a contiguous run of batches, with batches from two
// "segments", with none, and with an error.
FetchResponse many_shapes(std::int16_t version, const StoredBatches& one,
                          const StoredBatches& two) {
  FetchResponse response;
  if (version >= 7) response.session_id = 17;
  FetchResponse::Partition failed = partition(version, 3, {});
  failed.error_code = ErrorCode::kOffsetOutOfRange;
  failed.high_watermark = -1;
  failed.aborted_transactions.reset();
  response.responses = {
      {.topic = "orders",
       .partitions = {partition(version, 0, one.batches),
                      partition(version, 1, {two.batches[2], one.batches[0], one.batches[1]}),
                      partition(version, 2, {}), failed}},
      {.topic = "payments", .partitions = {partition(version, 0, {two.batches[0]})}},
      {.topic = "empty"}};
  if (version >= 13) {
    response.responses[0].topic = response.responses[1].topic = response.responses[2].topic = "";
    response.responses[0].topic_id = {1};
    response.responses[1].topic_id = {2};
    response.responses[2].topic_id = {3};
  }
  return response;
}

std::vector<std::uint8_t> contiguous(const FetchResponse& response, std::int16_t version) {
  std::vector<std::uint8_t> bytes{9, 9};  // something before, as the response header is
  WireWriter writer(bytes);
  response.encode(writer, version);
  EXPECT_TRUE(writer.ok());
  return bytes;
}

struct Spliced {
  std::vector<std::uint8_t> bytes;
  std::vector<SplicedRange> ranges;
  std::size_t spliced_bytes = 0;

  // The frame as a gathered write sends it.
  [[nodiscard]] std::vector<std::uint8_t> joined() const {
    std::vector<std::uint8_t> out;
    std::size_t position = 0;
    for (const SplicedRange& range : ranges) {
      out.insert(out.end(), bytes.begin() + static_cast<std::ptrdiff_t>(position),
                 bytes.begin() + static_cast<std::ptrdiff_t>(range.position));
      out.insert(out.end(), range.bytes.begin(), range.bytes.end());
      position = range.position;
    }
    out.insert(out.end(), bytes.begin() + static_cast<std::ptrdiff_t>(position), bytes.end());
    return out;
  }
};

Spliced spliced(const FetchResponse& response, std::int16_t version) {
  Spliced out;
  out.bytes = {9, 9};
  WireWriter writer(out.bytes);
  writer.splice_into(&out.ranges);
  response.encode(writer, version);
  EXPECT_TRUE(writer.ok());
  out.spliced_bytes = writer.spliced_bytes();
  return out;
}

TEST(FetchSpliced, GathersTheBytesOfTheContiguousEncodingInEveryVersion) {
  const StoredBatches one(3);
  const StoredBatches two(3);
  for (std::int16_t version = 4; version <= FetchResponse::kMaxVersion; ++version) {
    SCOPED_TRACE(version);
    const FetchResponse response = many_shapes(version, one, two);
    const std::vector<std::uint8_t> expected = contiguous(response, version);
    const Spliced out = spliced(response, version);
    EXPECT_EQ(out.joined(), expected);
    // The records are not in the vector: only listed, as views of the stored bytes.
    const std::size_t record_bytes = one.bytes.size() + one.batches[0].size() +
                                     one.batches[1].size() + two.batches[2].size() +
                                     two.batches[0].size();
    EXPECT_EQ(out.spliced_bytes, record_bytes);
    EXPECT_EQ(out.bytes.size() + record_bytes, expected.size());
    // Consecutive batches of one segment are one range: partition 0's three, partition 1's
    // last two; then partition 1's first and the other topic's.
    ASSERT_EQ(out.ranges.size(), 4u);
    EXPECT_EQ(out.ranges[0].bytes.data(), one.bytes.data());
    EXPECT_EQ(out.ranges[0].bytes.size(), one.bytes.size());
    EXPECT_EQ(out.ranges[1].bytes.data(), two.batches[2].data());
    EXPECT_EQ(out.ranges[2].bytes.data(), one.batches[0].data());
    EXPECT_EQ(out.ranges[2].bytes.size(), one.batches[0].size() + one.batches[1].size());
    EXPECT_EQ(out.ranges[3].bytes.data(), two.batches[0].data());
  }
}

TEST(FetchSpliced, AResponseWithoutRecordsListsNothing) {
  for (const std::int16_t version : {std::int16_t{4}, std::int16_t{12}, std::int16_t{17}}) {
    FetchResponse response;
    response.error_code = ErrorCode::kFetchSessionIdNotFound;
    const Spliced out = spliced(response, version);
    EXPECT_TRUE(out.ranges.empty());
    EXPECT_EQ(out.bytes, contiguous(response, version));
  }
}

TEST(FetchSpliced, BatchesAdjacentInMemoryButInTwoPartitionsAreTwoRanges) {
  const StoredBatches one(2);
  FetchResponse response;
  response.responses = {
      {.topic = "t",
       .partitions = {partition(12, 0, {one.batches[0]}), partition(12, 1, {one.batches[1]})}}};
  const Spliced out = spliced(response, 12);
  ASSERT_EQ(out.ranges.size(), 2u);  // the second partition's fields lie between them
  EXPECT_EQ(out.joined(), contiguous(response, 12));
}

}  // namespace
}  // namespace kgroups::protocol
