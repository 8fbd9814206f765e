// SPDX-License-Identifier: Apache-2.0

#include "protocol/record_compressor.h"

#include <lz4frame.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <array>
#include <cstdlib>

namespace kgroups::protocol {
namespace {

constexpr int kZstdLevel = 3;  // librdkafka's and the Java client's default

void check(bool ok) {
  if (!ok) std::abort();
}

std::vector<std::uint8_t> gzip(std::span<const std::uint8_t> in) {
  z_stream stream{};
  check(deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8,
                     Z_DEFAULT_STRATEGY) == Z_OK);
  std::vector<std::uint8_t> out(deflateBound(&stream, static_cast<uLong>(in.size())));
  // zlib's API takes a non-const pointer; deflate only reads the input.
  stream.next_in = const_cast<Bytef*>(in.data());
  stream.avail_in = static_cast<uInt>(in.size());
  stream.next_out = out.data();
  stream.avail_out = static_cast<uInt>(out.size());
  check(deflate(&stream, Z_FINISH) == Z_STREAM_END);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

// Appends one raw snappy block of `in` to `out`.
void append_snappy_block(std::span<const std::uint8_t> in, std::vector<std::uint8_t>& out) {
  const std::size_t start = out.size();
  std::size_t size = snappy_max_compressed_length(in.size());
  out.resize(start + size);
  check(snappy_compress(reinterpret_cast<const char*>(in.data()), in.size(),
                        reinterpret_cast<char*>(out.data() + start), &size) == SNAPPY_OK);
  out.resize(start + size);
}

void append_big_endian32(std::uint32_t value, std::vector<std::uint8_t>& out) {
  for (int shift = 24; shift >= 0; shift -= 8)
    out.push_back(static_cast<std::uint8_t>(value >> shift));
}

std::vector<std::uint8_t> snappy(std::span<const std::uint8_t> in, SnappyFraming framing) {
  std::vector<std::uint8_t> out;
  if (framing == SnappyFraming::kRaw) {
    append_snappy_block(in, out);
    return out;
  }
  constexpr std::array<std::uint8_t, 8> kMagic = {0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0};
  out.assign(kMagic.begin(), kMagic.end());
  append_big_endian32(1, out);  // version
  append_big_endian32(1, out);  // compatible version
  for (std::size_t position = 0; position < in.size(); position += kXerialBlockSize) {
    const std::size_t length_at = out.size();
    append_big_endian32(0, out);  // block length, patched below
    append_snappy_block(in.subspan(position, std::min(kXerialBlockSize, in.size() - position)),
                        out);
    const auto length = static_cast<std::uint32_t>(out.size() - length_at - 4);
    for (int i = 0; i < 4; ++i)
      out[length_at + i] = static_cast<std::uint8_t>(length >> (24 - 8 * i));
  }
  return out;
}

std::vector<std::uint8_t> lz4(std::span<const std::uint8_t> in) {
  LZ4F_preferences_t preferences{};
  preferences.frameInfo.blockMode = LZ4F_blockIndependent;
  preferences.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
  std::vector<std::uint8_t> out(LZ4F_compressFrameBound(in.size(), &preferences));
  const std::size_t size =
      LZ4F_compressFrame(out.data(), out.size(), in.data(), in.size(), &preferences);
  check(LZ4F_isError(size) == 0);
  out.resize(size);
  return out;
}

std::vector<std::uint8_t> zstd(std::span<const std::uint8_t> in) {
  std::vector<std::uint8_t> out(ZSTD_compressBound(in.size()));
  const std::size_t size = ZSTD_compress(out.data(), out.size(), in.data(), in.size(), kZstdLevel);
  check(ZSTD_isError(size) == 0);
  out.resize(size);
  return out;
}

}  // namespace

std::vector<std::uint8_t> compress_records(Compression codec, std::span<const std::uint8_t> records,
                                           SnappyFraming snappy_framing) {
  switch (codec) {
    case Compression::kNone:
      break;
    case Compression::kGzip:
      return gzip(records);
    case Compression::kSnappy:
      return snappy(records, snappy_framing);
    case Compression::kLz4:
      return lz4(records);
    case Compression::kZstd:
      return zstd(records);
  }
  return {records.begin(), records.end()};
}

std::vector<std::uint8_t> build_compressed_batch(const RecordBatchBuilder& builder,
                                                 Compression codec, SnappyFraming snappy_framing) {
  std::vector<std::uint8_t> batch;
  builder.build_compressed(codec, compress_records(codec, builder.records(), snappy_framing),
                           batch);
  return batch;
}

}  // namespace kgroups::protocol
