// SPDX-License-Identifier: Apache-2.0
//
// compress_records: compresses a batch's records section with a Kafka codec the way producers
// do: gzip framing; snappy as one raw block (librdkafka) or in the xerial framing (the Java
// client); one LZ4 frame of independent blocks; one zstd frame. For tests, benchmarks, the
// fuzzer and the log cleaner's RecordBatchRewriter (record_batch_rewriter.h): Produce and
// Fetch never compress, so this is its own target (kgroups_record_compressor), outside
// kgroups_protocol.
// Thread-safe: pure functions.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "protocol/record_batch.h"
#include "protocol/record_batch_builder.h"

namespace kgroups::protocol {

enum class SnappyFraming { kRaw, kXerial };

// One way a producer compresses: the codec, and for snappy the framing.
struct ProducerCodec {
  Compression codec = Compression::kNone;
  SnappyFraming snappy_framing = SnappyFraming::kRaw;
  std::string_view name;  // "gzip", "snappy-xerial", ...
};

// Every compressed form a Kafka producer writes.
inline constexpr std::array<ProducerCodec, 5> kProducerCodecs = {{
    {Compression::kGzip, SnappyFraming::kRaw, "gzip"},
    {Compression::kSnappy, SnappyFraming::kRaw, "snappy"},
    {Compression::kSnappy, SnappyFraming::kXerial, "snappy-xerial"},
    {Compression::kLz4, SnappyFraming::kRaw, "lz4"},
    {Compression::kZstd, SnappyFraming::kRaw, "zstd"},
}};

// Blocks of the xerial framing hold this many uncompressed bytes (xerial's default), so
// records longer than this make several blocks.
inline constexpr std::size_t kXerialBlockSize = std::size_t{32} * 1024;

// `records` compressed with `codec` (kNone copies them). Aborts if a library fails, which
// only running out of memory can cause.
std::vector<std::uint8_t> compress_records(Compression codec, std::span<const std::uint8_t> records,
                                           SnappyFraming snappy_framing = SnappyFraming::kRaw);

// The batch `builder` builds, with its records compressed with `codec`.
std::vector<std::uint8_t> build_compressed_batch(
    const RecordBatchBuilder& builder, Compression codec,
    SnappyFraming snappy_framing = SnappyFraming::kRaw);

}  // namespace kgroups::protocol
