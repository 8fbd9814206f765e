// SPDX-License-Identifier: Apache-2.0
//
// libFuzzer target for RecordValidator (run by scripts/test-fuzz). Each input is one
// partition's `records` of a Produce request. It goes to validate() and to
// find_record_at_or_after(), through one long-lived validator as in the broker, so its buffers
// are reused across inputs. Nothing may crash, leak or read out of bounds, and a batch that
// validates must agree with decode_batch_records (record count, max timestamp; compressed
// batches after decompression), stay valid when its max_timestamp is rewritten, and let
// find_record_at_or_after() find its max timestamp (the process aborts otherwise).
// A custom mutator gets mutations past the CRC: it mostly lets libFuzzer mutate the bytes and
// then fixes batch_length and the CRC; for compressed batches it also decompresses the records,
// mutates them and compresses them again with the batch's codec, so the record walker sees
// mutated records under every codec. Seeds: valid batches of every codec, written by
// record_validator_fuzz_seeds.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <random>
#include <span>
#include <vector>

#include "protocol/batch_records.h"
#include "protocol/record_batch.h"
#include "protocol/record_compressor.h"
#include "protocol/record_decompressor.h"
#include "protocol/record_validator.h"

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

namespace kgroups::protocol {
namespace {

constexpr std::size_t kMaxUncompressedBytes = 1 << 20;

void check(bool ok) {
  if (!ok) std::abort();
}

void store_big_endian32(std::uint8_t* out, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<std::uint8_t>(value >> (24 - 8 * i));
}

// Makes batch_length match `size` and re-signs the batch, so a mutation gets past both.
void fix_length_and_crc(std::uint8_t* data, std::size_t size) {
  if (size < kBatchHeaderSize) return;
  store_big_endian32(data + kBatchLengthOffset,
                     static_cast<std::uint32_t>(size - kBatchLogOverhead));
  store_big_endian32(data + kBatchCrcOffset, compute_batch_crc(std::span(data, size)));
}

// Decompresses the records of a compressed batch, mutates them and compresses them again
// with the same codec (and snappy framing). Returns the new size, or nullopt when the input
// is not a compressed batch that decompresses or the result would not fit `max_size`.
std::optional<std::size_t> mutate_decompressed(std::uint8_t* data, std::size_t size,
                                               std::size_t max_size) {
  static RecordDecompressor decompressor;
  auto header = parse_record_batch_header(std::span(data, size));
  if (!header || header->compression() == Compression::kNone ||
      static_cast<int>(header->compression()) > static_cast<int>(Compression::kZstd)) {
    return std::nullopt;
  }
  const std::span<const std::uint8_t> payload(data + kBatchHeaderSize, size - kBatchHeaderSize);
  auto records = decompressor.decompress(header->compression(), payload, kMaxUncompressedBytes);
  if (!records) return std::nullopt;
  std::vector<std::uint8_t> plain(records->size() + 64);
  std::copy(records->begin(), records->end(), plain.begin());
  plain.resize(LLVMFuzzerMutate(plain.data(), records->size(), plain.size()));
  const bool xerial = payload.size() >= 8 && payload[0] == 0x82 && payload[1] == 'S';
  const auto compressed = compress_records(header->compression(), plain,
                                           xerial ? SnappyFraming::kXerial : SnappyFraming::kRaw);
  if (kBatchHeaderSize + compressed.size() > max_size) return std::nullopt;
  std::copy(compressed.begin(), compressed.end(), data + kBatchHeaderSize);
  return kBatchHeaderSize + compressed.size();
}

std::size_t mutate(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned int seed) {
  std::minstd_rand random(seed);
  switch (random() % 8) {
    case 0:  // plain bytes: also exercises the length and CRC checks
      return LLVMFuzzerMutate(data, size, max_size);
    case 1:
    case 2:
    case 3:
      if (auto mutated = mutate_decompressed(data, size, max_size)) {
        fix_length_and_crc(data, *mutated);
        return *mutated;
      }
      [[fallthrough]];
    default: {
      const std::size_t mutated = LLVMFuzzerMutate(data, size, max_size);
      fix_length_and_crc(data, mutated);
      return mutated;
    }
  }
}

// The max timestamp of records decoded from an uncompressed batch, as Kafka computes it.
std::int64_t max_timestamp_of(const RecordBatchHeader& header,
                              const std::vector<BatchRecord>& records) {
  std::int64_t max_timestamp = kNoTimestamp;
  for (const BatchRecord& record : records) {
    max_timestamp = std::max(max_timestamp, header.base_timestamp + record.timestamp_delta);
  }
  return max_timestamp;
}

// The batch with its records decompressed and its codec bits cleared (CRC not updated).
std::vector<std::uint8_t> uncompressed_copy(std::span<const std::uint8_t> batch,
                                            const RecordBatchHeader& header) {
  static RecordDecompressor decompressor;
  std::vector<std::uint8_t> copy(batch.begin(), batch.begin() + kBatchHeaderSize);
  if (header.compression() == Compression::kNone) {
    copy.insert(copy.end(), batch.begin() + kBatchHeaderSize, batch.end());
  } else {
    auto records = decompressor.decompress(header.compression(), batch.subspan(kBatchHeaderSize),
                                           kMaxUncompressedBytes);
    check(records.has_value());
    copy.insert(copy.end(), records->begin(), records->end());
  }
  copy[kBatchAttributesOffset + 1] &= 0xF8;
  store_big_endian32(copy.data() + kBatchLengthOffset,
                     static_cast<std::uint32_t>(copy.size() - kBatchLogOverhead));
  return copy;
}

void fuzz_one(std::span<const std::uint8_t> input) {
  static RecordValidator validator({.max_uncompressed_bytes = kMaxUncompressedBytes});
  auto result = validator.validate(input);
  if (!result) {
    check(!validator.rejection_reason().empty());
    // Stored-batch lookups see the same bytes without the Produce checks.
    std::int64_t target = 0;
    if (input.size() >= kBatchHeaderSize) target = static_cast<std::int8_t>(input[35]);
    (void)validator.find_record_at_or_after(input, target);
    return;
  }
  const ValidatedBatch batch = *result;
  check(batch.bytes.data() == input.data() && batch.bytes.size() == input.size());
  check(validator.rejection_reason().empty());

  const std::vector<std::uint8_t> plain = uncompressed_copy(input, batch.header);
  auto records = decode_batch_records(plain);
  check(records.has_value());
  check(static_cast<std::int64_t>(records->size()) == batch.header.record_count);
  check(max_timestamp_of(batch.header, *records) == batch.max_timestamp);

  std::vector<std::uint8_t> rewritten(input.begin(), input.end());
  write_max_timestamp(rewritten, batch.max_timestamp);
  auto again = validator.validate(rewritten);
  check(again.has_value() && again->max_timestamp == batch.max_timestamp);

  if (batch.max_timestamp != kNoTimestamp) {
    auto found = validator.find_record_at_or_after(input, batch.max_timestamp);
    check(found.has_value() && found->has_value() && (*found)->timestamp == batch.max_timestamp);
  }
}

}  // namespace
}  // namespace kgroups::protocol

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  kgroups::protocol::fuzz_one(std::span<const std::uint8_t>(data, size));
  return 0;
}

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size,
                                               std::size_t max_size, unsigned int seed) {
  return kgroups::protocol::mutate(data, size, max_size, seed);
}
