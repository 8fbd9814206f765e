// SPDX-License-Identifier: Apache-2.0

#include "protocol/record_decompressor.h"

#include <gtest/gtest.h>
#include <zstd.h>

#include <vector>

#include "protocol/record_compressor.h"

namespace kgroups::protocol {
namespace {

constexpr std::size_t kLimit = 1 << 20;

// Compressible bytes that are not all alike: a counter in text.
std::vector<std::uint8_t> sample(std::size_t size) {
  std::vector<std::uint8_t> bytes(size);
  for (std::size_t i = 0; i < size; ++i) {
    bytes[i] = static_cast<std::uint8_t>('0' + (i / 7) % 10);
  }
  return bytes;
}

std::vector<std::uint8_t> concat(std::vector<std::uint8_t> a, const std::vector<std::uint8_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST(RecordDecompressor, RoundTripsEveryProducerCodec) {
  RecordDecompressor decompressor;
  // 100 KiB spans several xerial blocks and lz4 blocks.
  for (const std::size_t size : {std::size_t{1}, std::size_t{1000}, std::size_t{100} * 1024}) {
    const std::vector<std::uint8_t> plain = sample(size);
    for (const ProducerCodec& codec : kProducerCodecs) {
      SCOPED_TRACE(std::string(codec.name) + " " + std::to_string(size));
      const auto compressed = compress_records(codec.codec, plain, codec.snappy_framing);
      auto out = decompressor.decompress(codec.codec, compressed, kLimit);
      ASSERT_TRUE(out) << decompressor.last_error();
      EXPECT_EQ(*out, ByteView(plain));
      EXPECT_EQ(decompressor.last_error(), "");
    }
  }
}

TEST(RecordDecompressor, EmptyOutputIsValid) {
  RecordDecompressor decompressor;
  for (const ProducerCodec& codec : kProducerCodecs) {
    SCOPED_TRACE(codec.name);
    const auto compressed = compress_records(codec.codec, {}, codec.snappy_framing);
    auto out = decompressor.decompress(codec.codec, compressed, kLimit);
    ASSERT_TRUE(out) << decompressor.last_error();
    EXPECT_TRUE(out->empty());
  }
}

TEST(RecordDecompressor, ConcatenatedMembersOrFramesDecodeWhole) {
  RecordDecompressor decompressor;
  const std::vector<std::uint8_t> first = sample(3000);
  const std::vector<std::uint8_t> second = sample(500);
  for (const Compression codec : {Compression::kGzip, Compression::kLz4, Compression::kZstd}) {
    SCOPED_TRACE(static_cast<int>(codec));
    const auto compressed = concat(compress_records(codec, first), compress_records(codec, second));
    auto out = decompressor.decompress(codec, compressed, kLimit);
    ASSERT_TRUE(out) << decompressor.last_error();
    EXPECT_EQ(*out, ByteView(concat(first, second)));
  }
}

TEST(RecordDecompressor, OutputOfExactlyTheLimitIsAcceptedAndOneByteMoreIsInvalidRecord) {
  RecordDecompressor decompressor;
  const std::vector<std::uint8_t> plain = sample(50000);
  for (const ProducerCodec& codec : kProducerCodecs) {
    SCOPED_TRACE(codec.name);
    const auto compressed = compress_records(codec.codec, plain, codec.snappy_framing);
    EXPECT_TRUE(decompressor.decompress(codec.codec, compressed, plain.size()));
    auto over = decompressor.decompress(codec.codec, compressed, plain.size() - 1);
    ASSERT_FALSE(over);
    EXPECT_EQ(over.error(), ErrorCode::kInvalidRecord);
  }
}

TEST(RecordDecompressor, GzipBombStopsAtTheLimit) {
  const std::vector<std::uint8_t> zeros(64 << 20);
  const auto bomb = compress_records(Compression::kGzip, zeros);
  ASSERT_LT(bomb.size(), 100u * 1024);  // 64 MiB in well under 100 KiB
  RecordDecompressor decompressor;
  auto out = decompressor.decompress(Compression::kGzip, bomb, kLimit);
  ASSERT_FALSE(out);
  EXPECT_EQ(out.error(), ErrorCode::kInvalidRecord);
  EXPECT_EQ(decompressor.last_error(), "output exceeds the limit");
  EXPECT_LE(decompressor.buffer_capacity(), kLimit + 1);
}

TEST(RecordDecompressor, BombsOfEveryCodecStopAtTheLimit) {
  const std::vector<std::uint8_t> zeros(16 << 20);
  RecordDecompressor decompressor;
  for (const ProducerCodec& codec : kProducerCodecs) {
    SCOPED_TRACE(codec.name);
    const auto bomb = compress_records(codec.codec, zeros, codec.snappy_framing);
    auto out = decompressor.decompress(codec.codec, bomb, kLimit);
    ASSERT_FALSE(out);
    EXPECT_EQ(out.error(), ErrorCode::kInvalidRecord);
    EXPECT_LE(decompressor.buffer_capacity(), kLimit + 1);
  }
}

TEST(RecordDecompressor, TruncatedPayloadIsCorruptMessage) {
  RecordDecompressor decompressor;
  const std::vector<std::uint8_t> plain = sample(std::size_t{100} * 1024);
  for (const ProducerCodec& codec : kProducerCodecs) {
    const auto compressed = compress_records(codec.codec, plain, codec.snappy_framing);
    for (const std::size_t keep :
         {std::size_t{0}, std::size_t{3}, compressed.size() / 2, compressed.size() - 1}) {
      SCOPED_TRACE(std::string(codec.name) + " keeping " + std::to_string(keep));
      auto out = decompressor.decompress(codec.codec, std::span(compressed).first(keep), kLimit);
      ASSERT_FALSE(out);
      EXPECT_EQ(out.error(), ErrorCode::kCorruptMessage);
      EXPECT_NE(decompressor.last_error(), "");
    }
  }
}

TEST(RecordDecompressor, GarbledPayloadIsCorruptMessage) {
  RecordDecompressor decompressor;
  const std::vector<std::uint8_t> plain = sample(5000);
  for (const ProducerCodec& codec : kProducerCodecs) {
    SCOPED_TRACE(codec.name);
    auto compressed = compress_records(codec.codec, plain, codec.snappy_framing);
    // The first bytes are the gzip header, a frame's magic or the xerial magic (whose loss
    // leaves a raw block starting with an invalid length). A raw snappy block starts with its
    // length: make it too small for what follows.
    if (codec.codec == Compression::kSnappy && codec.snappy_framing == SnappyFraming::kRaw) {
      compressed[0] = 0x05;
    } else {
      for (std::size_t i = 0; i < 4; ++i) compressed[i] = 0xFF;
    }
    auto out = decompressor.decompress(codec.codec, compressed, kLimit);
    ASSERT_FALSE(out);
    EXPECT_EQ(out.error(), ErrorCode::kCorruptMessage);
  }
}

TEST(RecordDecompressor, ChecksumMismatchIsCorruptMessage) {
  RecordDecompressor decompressor;
  const std::vector<std::uint8_t> plain = sample(5000);
  // gzip ends with CRC-32 and size; our lz4 frames carry a content checksum.
  for (const Compression codec : {Compression::kGzip, Compression::kLz4}) {
    SCOPED_TRACE(static_cast<int>(codec));
    auto compressed = compress_records(codec, plain);
    compressed[compressed.size() - 5] ^= 0x01;
    auto out = decompressor.decompress(codec, compressed, kLimit);
    ASSERT_FALSE(out);
    EXPECT_EQ(out.error(), ErrorCode::kCorruptMessage);
  }
}

TEST(RecordDecompressor, BytesAfterTheLastFrameAreCorruptMessage) {
  RecordDecompressor decompressor;
  const std::vector<std::uint8_t> plain = sample(5000);
  for (const ProducerCodec& codec : kProducerCodecs) {
    SCOPED_TRACE(codec.name);
    auto compressed = compress_records(codec.codec, plain, codec.snappy_framing);
    compressed.insert(compressed.end(), {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1});
    auto out = decompressor.decompress(codec.codec, compressed, kLimit);
    ASSERT_FALSE(out);
    EXPECT_EQ(out.error(), ErrorCode::kCorruptMessage);
  }
}

TEST(RecordDecompressor, NoneIsNotACodec) {
  RecordDecompressor decompressor;
  const std::vector<std::uint8_t> plain = sample(10);
  auto out = decompressor.decompress(Compression::kNone, plain, kLimit);
  ASSERT_FALSE(out);
  EXPECT_EQ(out.error(), ErrorCode::kUnsupportedCompressionType);
}

TEST(RecordDecompressor, ReusesItsBufferOnceWarm) {
  RecordDecompressor decompressor;
  const std::vector<std::uint8_t> plain = sample(std::size_t{200} * 1024);
  for (const ProducerCodec& codec : kProducerCodecs) {
    SCOPED_TRACE(codec.name);
    const auto compressed = compress_records(codec.codec, plain, codec.snappy_framing);
    auto first = decompressor.decompress(codec.codec, compressed, kLimit);
    ASSERT_TRUE(first);
    const std::uint8_t* data = first->data();
    const std::size_t capacity = decompressor.buffer_capacity();
    auto again = decompressor.decompress(codec.codec, compressed, kLimit);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->data(), data);
    EXPECT_EQ(decompressor.buffer_capacity(), capacity);
  }
}

TEST(RecordDecompressor, ZstdWindowBeyondTheLimitIsInvalidRecord) {
  // A streamed frame (input given before the end, so no content size) with a 2^25 window:
  // decoding it takes 32 MiB whatever its output.
  const std::vector<std::uint8_t> plain = sample(1000);
  ZSTD_CCtx* context = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(context, ZSTD_c_windowLog, 25);
  std::vector<std::uint8_t> compressed(ZSTD_compressBound(plain.size()) + 64);
  ZSTD_outBuffer output{compressed.data(), compressed.size(), 0};
  ZSTD_inBuffer input{plain.data(), plain.size(), 0};
  ZSTD_compressStream2(context, &output, &input, ZSTD_e_continue);
  ZSTD_inBuffer end{nullptr, 0, 0};
  ASSERT_EQ(ZSTD_compressStream2(context, &output, &end, ZSTD_e_end), 0u);
  ZSTD_freeCCtx(context);
  compressed.resize(output.pos);

  RecordDecompressor decompressor;
  auto out = decompressor.decompress(Compression::kZstd, compressed, kLimit);
  ASSERT_FALSE(out);
  EXPECT_EQ(out.error(), ErrorCode::kInvalidRecord);
  EXPECT_TRUE(decompressor.decompress(Compression::kZstd, compressed, std::size_t{32} << 20));
}

TEST(RecordDecompressor, MovedDecompressorKeepsWorking) {
  RecordDecompressor decompressor;
  const std::vector<std::uint8_t> plain = sample(4000);
  const auto compressed = compress_records(Compression::kGzip, plain);
  ASSERT_TRUE(decompressor.decompress(Compression::kGzip, compressed, kLimit));
  RecordDecompressor moved = std::move(decompressor);
  auto out = moved.decompress(Compression::kGzip, compressed, kLimit);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, ByteView(plain));
}

}  // namespace
}  // namespace kgroups::protocol
