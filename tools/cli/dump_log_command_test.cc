// SPDX-License-Identifier: Apache-2.0
#include "dump_log_command.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "broker/log_format/segment_index_format.h"
#include "broker/log_format/segment_scan.h"
#include "protocol/record_batch.h"
#include "protocol/record_batch_builder.h"
#include "protocol/record_compressor.h"

namespace kgroups::cli {
namespace {

using protocol::ByteView;

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.starts_with(prefix);
}

// A segment based at 0: an idempotent batch of two records (offsets 0-1, leader epoch 3), a
// transaction's COMMIT marker (offset 2, coordinator epoch 5), a gzip batch (offsets 3-4).
std::vector<std::uint8_t> sample_segment() {
  std::vector<std::uint8_t> segment;
  protocol::RecordBatchBuilder idempotent;
  idempotent.set_producer(7, 0, 10);
  const std::vector<protocol::RecordHeader> headers{{"h1", ByteView::of("x")},
                                                    {"h2", std::nullopt}};
  idempotent.add(ByteView::of("k0"), ByteView::of("hello"), 1000);
  idempotent.add(std::nullopt, ByteView::of("line\nbreak"), 1005, headers);
  auto first = idempotent.build();
  protocol::write_partition_leader_epoch(first, 3);
  segment.insert(segment.end(), first.begin(), first.end());

  protocol::RecordBatchBuilder marker;
  marker.set_producer(7, 0, -1);
  marker.set_attributes(0x30);
  const std::vector<std::uint8_t> key{0, 0, 0, 1};          // version 0, COMMIT
  const std::vector<std::uint8_t> value{0, 0, 0, 0, 0, 5};  // version 0, coordinator epoch 5
  marker.add(ByteView(key), ByteView(value), 1010);
  auto second = marker.build();
  protocol::write_base_offset(second, 2);
  segment.insert(segment.end(), second.begin(), second.end());

  protocol::RecordBatchBuilder compressed;
  compressed.add(ByteView::of("a"), ByteView::of("zipped-1"), 2000);
  compressed.add(ByteView::of("b"), std::nullopt, 2001);
  auto third = protocol::build_compressed_batch(compressed, protocol::Compression::kGzip);
  protocol::write_base_offset(third, 3);
  segment.insert(segment.end(), third.begin(), third.end());
  return segment;
}

class DumpLog : public testing::Test {
 protected:
  void SetUp() override {
    folder_ = std::filesystem::temp_directory_path() /
              ("kgroups-dump-log-" + std::to_string(::getpid()) + "-" +
               testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(folder_);
    std::filesystem::create_directories(folder_);
  }
  void TearDown() override { std::filesystem::remove_all(folder_); }

  std::filesystem::path write(const std::string& name, const std::vector<std::uint8_t>& bytes) {
    auto path = folder_ / name;
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
    return path;
  }

  static std::string dump(const std::filesystem::path& file, DumpLogOptions options = {}) {
    std::ostringstream out;
    dump_log_file(file, options, out);
    return out.str();
  }

  static std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> result;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) result.push_back(line);
    return result;
  }

  std::filesystem::path folder_;
};

TEST_F(DumpLog, ASegmentPrintsKafkasBatchAndRecordLines) {
  const auto segment = sample_segment();
  const auto scan = broker::scan_segment(segment, 0, true);
  ASSERT_EQ(scan.batches.size(), 3U);
  const auto file = write("00000000000000000000.log", segment);
  const auto out = lines(dump(file, {.print_data_log = true}));
  ASSERT_EQ(out.size(), 2U + 3 + 2 + 1 + 2) << dump(file, {.print_data_log = true});
  EXPECT_EQ(out[0], "Dumping " + file.string());
  EXPECT_EQ(out[1], "Log starting offset: 0");
  const auto& first = scan.batches[0];
  EXPECT_EQ(out[2],
            "baseOffset: 0 lastOffset: 1 count: 2 baseSequence: 10 lastSequence: 11 "
            "producerId: 7 producerEpoch: 0 partitionLeaderEpoch: 3 isTransactional: false "
            "isControl: false position: 0 CreateTime: 1005 size: " +
                std::to_string(first.size_bytes) + " magic: 2 compresscodec: none crc: " +
                std::to_string(first.crc) + " isvalid: true");
  EXPECT_EQ(out[3],
            "| offset: 0 CreateTime: 1000 keySize: 2 valueSize: 5 sequence: 10 headerKeys: [] "
            "key: k0 payload: hello");
  EXPECT_EQ(out[4],
            "| offset: 1 CreateTime: 1005 keySize: -1 valueSize: 10 sequence: 11 "
            "headerKeys: [h1,h2] payload: line\\x0abreak");
  EXPECT_PRED2(starts_with, out[5],
               "baseOffset: 2 lastOffset: 2 count: 1 baseSequence: -1 lastSequence: -1 "
               "producerId: 7 producerEpoch: 0 partitionLeaderEpoch: -1 isTransactional: true "
               "isControl: true");
  EXPECT_EQ(out[6],
            "| offset: 2 CreateTime: 1010 keySize: 4 valueSize: 6 sequence: -1 headerKeys: [] "
            "endTxnMarker: COMMIT coordinatorEpoch: 5");
  EXPECT_NE(out[7].find("compresscodec: gzip"), std::string::npos) << out[7];
  EXPECT_EQ(out[8],
            "| offset: 3 CreateTime: 2000 keySize: 1 valueSize: 8 sequence: -1 headerKeys: [] "
            "key: a payload: zipped-1");
  EXPECT_EQ(out[9],
            "| offset: 4 CreateTime: 2001 keySize: 1 valueSize: -1 sequence: -1 headerKeys: [] "
            "key: b");
  // Without --print-data-log: the batch lines only.
  EXPECT_EQ(lines(dump(file)).size(), 5U);
}

TEST_F(DumpLog, ATornSegmentSaysWhereItsValidBatchesEndAndWhy) {
  auto segment = sample_segment();
  const auto scan = broker::scan_segment(segment, 0, true);
  const std::size_t last = scan.batches[2].position;
  segment.resize(last + 30);
  const auto out = lines(dump(write("00000000000000000000.log", segment)));
  ASSERT_EQ(out.size(), 5U);
  EXPECT_EQ(out[4], "Found 30 invalid bytes at position " + std::to_string(last) +
                        ": the batch at byte " + std::to_string(last) + " declares " +
                        std::to_string(scan.batches[2].size_bytes) + " bytes but only 30 remain");
}

TEST_F(DumpLog, ACorruptBatchIsShownInvalidAndPreallocatedZerosAreNamed) {
  auto segment = sample_segment();
  const auto scan = broker::scan_segment(segment, 0, true);
  segment[scan.batches[0].position + 70] ^= 0x01;  // inside the first record
  const auto corrupt = lines(dump(write("00000000000000000000.log", segment)));
  ASSERT_EQ(corrupt.size(), 6U);
  EXPECT_NE(corrupt[2].find("isvalid: false"), std::string::npos) << corrupt[2];
  EXPECT_NE(corrupt[3].find("isvalid: true"), std::string::npos) << corrupt[3];
  EXPECT_PRED2(starts_with, corrupt[5],
               "Found " + std::to_string(segment.size()) +
                   " invalid bytes at position 0: CRC mismatch in the batch at byte 0");

  auto preallocated = sample_segment();
  preallocated.resize(preallocated.size() + 1000, 0);
  const auto zeros = lines(dump(write("00000000000000000000.log.cleaned", preallocated)));
  EXPECT_EQ(zeros[1], "Log starting offset: 0");
  EXPECT_EQ(zeros.back(),
            "Found 1000 bytes of preallocated zeros at position " + std::to_string(segment.size()));
  // Offsets below the base offset the name gives are corruption.
  const auto below = lines(dump(write("00000000000000000042.log", sample_segment())));
  EXPECT_EQ(below[1], "Log starting offset: 42");
  EXPECT_EQ(below.back(), "Found " + std::to_string(segment.size()) +
                              " invalid bytes at position 0: base offset 0 of the batch at "
                              "byte 0 is below the first offset the segment may hold, 42");
}

TEST_F(DumpLog, JsonIsOneObjectPerFile) {
  auto segment = sample_segment();
  segment.resize(segment.size() + 10, 0);
  const auto text =
      dump(write("00000000000000000000.log", segment), {.print_data_log = true, .json = true});
  EXPECT_EQ(lines(text).size(), 1U);
  const auto json = nlohmann::json::parse(text);
  EXPECT_EQ(json["kind"], "log");
  ASSERT_EQ(json["batches"].size(), 3U);
  EXPECT_EQ(json["batches"][0]["records"][1]["payload"], "line\\x0abreak");
  EXPECT_EQ(json["batches"][1]["records"][0]["endTxnMarker"], "COMMIT");
  EXPECT_EQ(json["batches"][2]["compresscodec"], "gzip");
  EXPECT_EQ(json["stop"], "zero_tail");
  EXPECT_EQ(json["validBytes"], segment.size() - 10);
}

TEST_F(DumpLog, IndexesPrintTheirEntries) {
  std::vector<broker::ScannedBatch> batches;
  for (int i = 0; i < 5; ++i) {
    broker::ScannedBatch batch;
    batch.position = 2000 * static_cast<std::size_t>(i);
    batch.size_bytes = 2000;
    batch.base_offset = 100 + i;
    batch.last_offset = 100 + i;
    batch.max_timestamp = 5000 + i;
    batches.push_back(batch);
  }
  auto index = broker::build_offset_index(100, batches);
  index.resize(index.size() + 64, 0);  // preallocated
  const auto index_file = write("00000000000000000100.index", index);
  EXPECT_EQ(lines(dump(index_file)), (std::vector<std::string>{"Dumping " + index_file.string(),
                                                               "offset: 103 position: 6000"}));
  const auto time_file =
      write("00000000000000000100.timeindex", broker::build_time_index(100, batches, true));
  const auto times = lines(dump(time_file));
  ASSERT_EQ(times.size(), 3U);
  EXPECT_EQ(times[1], "timestamp: 5003 offset: 103");
  EXPECT_EQ(times[2], "timestamp: 5004 offset: 104");
  const auto empty_file = write("00000000000000000000.index", {});
  EXPECT_EQ(lines(dump(empty_file)).back(), empty_file.string() + " is empty.");
  const auto json = nlohmann::json::parse(dump(time_file, {.json = true}));
  EXPECT_EQ(json["entries"][1]["offset"], 104);
}

TEST_F(DumpLog, AMissingOrWronglyNamedFileIsAnErrorThatPrintsNothing) {
  std::ostringstream out;
  EXPECT_THROW(dump_log_file(write("orders.log", sample_segment()), {}, out), DumpLogError);
  EXPECT_THROW(dump_log_file(write("00000000000000000000.snapshot", {}), {}, out), DumpLogError);
  try {
    dump_log_file(folder_ / "00000000000000000007.log", {}, out);
    ADD_FAILURE() << "no exception";
  } catch (const DumpLogError& error) {
    EXPECT_NE(std::string(error.what()).find("00000000000000000007.log: no such file"),
              std::string::npos)
        << error.what();
  }
  EXPECT_EQ(out.str(), "");
}

}  // namespace
}  // namespace kgroups::cli
