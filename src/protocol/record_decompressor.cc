// SPDX-License-Identifier: Apache-2.0

#include "protocol/record_decompressor.h"

#include <lz4frame.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <utility>

namespace kgroups::protocol {
namespace {

// The first buffer, and the least a streaming decoder grows it to.
constexpr std::size_t kInitialCapacity = std::size_t{64} * 1024;
// Deflate expands at most about 1032:1, which bounds how far a gzip trailer's size is trusted.
constexpr std::size_t kMaxDeflateRatio = 1032;
constexpr std::size_t kGzipMinSize = 18;  // 10-byte header + 8-byte trailer
// The xerial framing of the Java client's snappy: this magic, int32 version, int32
// compatible version, then blocks of int32 (big-endian) length + one raw snappy block.
constexpr std::array<std::uint8_t, 8> kXerialMagic = {0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0};
constexpr std::size_t kXerialHeaderSize = 16;
// Bounds for a zstd frame's window (decoder memory). Streaming clients (librdkafka, the Java
// client) leave the content size out and get the level's window: 2^21 at the default level,
// 2^23 up to level 19. Below 2^23 we would refuse real clients; above the limit's size we
// would let a frame claim more memory than its output may take, up to zstd's default 2^27.
constexpr int kZstdMinWindowLog = 23;
constexpr int kZstdMaxWindowLog = 27;

// The output capacity that still detects output past `max_bytes`: one byte more.
std::size_t cap_for(std::size_t max_bytes) {
  return max_bytes == std::numeric_limits<std::size_t>::max() ? max_bytes : max_bytes + 1;
}

std::uint32_t load_big_endian32(const std::uint8_t* bytes) {
  return static_cast<std::uint32_t>(bytes[0]) << 24 | static_cast<std::uint32_t>(bytes[1]) << 16 |
         static_cast<std::uint32_t>(bytes[2]) << 8 | static_cast<std::uint32_t>(bytes[3]);
}

std::uint32_t load_little_endian32(const std::uint8_t* bytes) {
  return static_cast<std::uint32_t>(bytes[3]) << 24 | static_cast<std::uint32_t>(bytes[2]) << 16 |
         static_cast<std::uint32_t>(bytes[1]) << 8 | static_cast<std::uint32_t>(bytes[0]);
}

int zstd_window_log_for(std::size_t max_bytes) {
  int log = 0;
  while (log < kZstdMaxWindowLog && (std::size_t{1} << log) < max_bytes) ++log;
  return std::clamp(log, kZstdMinWindowLog, kZstdMaxWindowLog);
}

const char* as_chars(const std::uint8_t* bytes) { return reinterpret_cast<const char*>(bytes); }

}  // namespace

struct RecordDecompressor::Contexts {
  Contexts() = default;
  ~Contexts() {
    if (gzip_ready) inflateEnd(&gzip);
    if (lz4 != nullptr) LZ4F_freeDecompressionContext(lz4);
    if (zstd != nullptr) ZSTD_freeDCtx(zstd);
  }
  Contexts(const Contexts&) = delete;
  Contexts& operator=(const Contexts&) = delete;
  Contexts(Contexts&&) = delete;
  Contexts& operator=(Contexts&&) = delete;

  z_stream gzip{};  // zlib keeps a pointer to it: it never moves (Contexts is on the heap)
  bool gzip_ready = false;
  LZ4F_dctx* lz4 = nullptr;
  ZSTD_DCtx* zstd = nullptr;
};

RecordDecompressor::RecordDecompressor() = default;
RecordDecompressor::~RecordDecompressor() = default;
// A moved-from decompressor is empty, as if new.
RecordDecompressor::RecordDecompressor(RecordDecompressor&& other) noexcept
    : contexts_(std::move(other.contexts_)),
      buffer_(std::move(other.buffer_)),
      capacity_(std::exchange(other.capacity_, 0)),
      last_error_(std::exchange(other.last_error_, {})) {}

RecordDecompressor& RecordDecompressor::operator=(RecordDecompressor&& other) noexcept {
  contexts_ = std::move(other.contexts_);
  buffer_ = std::move(other.buffer_);
  capacity_ = std::exchange(other.capacity_, 0);
  last_error_ = std::exchange(other.last_error_, {});
  return *this;
}

Result<ByteView> RecordDecompressor::decompress(Compression codec,
                                                std::span<const std::uint8_t> compressed,
                                                std::size_t max_bytes) {
  last_error_ = {};
  if (!contexts_) contexts_ = std::make_unique<Contexts>();
  Result<std::size_t> size = ErrorCode::kUnsupportedCompressionType;
  switch (codec) {
    case Compression::kGzip:
      size = gunzip(compressed, max_bytes);
      break;
    case Compression::kSnappy:
      size = unsnappy(compressed, max_bytes);
      break;
    case Compression::kLz4:
      size = unlz4(compressed, max_bytes);
      break;
    case Compression::kZstd:
      size = unzstd(compressed, max_bytes);
      break;
    default:
      return fail(ErrorCode::kUnsupportedCompressionType, "not a compression codec");
  }
  if (!size) return size.error();
  // The streaming decoders may fill the one byte past the limit and end there.
  if (*size > max_bytes) return fail(ErrorCode::kInvalidRecord, "output exceeds the limit");
  return ByteView(buffer_.get(), *size);
}

Result<std::size_t> RecordDecompressor::gunzip(std::span<const std::uint8_t> in,
                                               std::size_t max_bytes) {
  z_stream& stream = contexts_->gzip;
  if (!contexts_->gzip_ready) {
    if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK) {  // 16: gzip framing only
      return fail(ErrorCode::kUnknownServerError, "zlib could not start");
    }
    contexts_->gzip_ready = true;
  } else if (inflateReset(&stream) != Z_OK) {
    return fail(ErrorCode::kUnknownServerError, "zlib could not reset");
  }
  if (in.size() > std::numeric_limits<uInt>::max()) {
    return fail(ErrorCode::kCorruptMessage, "payload larger than zlib takes");
  }
  // zlib's API takes a non-const pointer; inflate only reads the input.
  stream.next_in = const_cast<Bytef*>(in.data());
  stream.avail_in = static_cast<uInt>(in.size());
  // The trailer's ISIZE (the size mod 2^32) sizes the first buffer; it is only a hint.
  std::size_t hint = 0;
  if (in.size() >= kGzipMinSize) {
    hint = std::min<std::size_t>(load_little_endian32(in.data() + in.size() - 4),
                                 in.size() * kMaxDeflateRatio);
  }
  const std::size_t cap = cap_for(max_bytes);
  std::size_t used = 0;
  for (;;) {
    const std::size_t free = room(used, cap, hint);
    if (free == 0) return fail(ErrorCode::kInvalidRecord, "output exceeds the limit");
    stream.next_out = buffer_.get() + used;
    stream.avail_out = static_cast<uInt>(std::min<std::size_t>(free, 1U << 30));
    const uInt offered = stream.avail_out;
    const int status = inflate(&stream, Z_NO_FLUSH);
    used += offered - stream.avail_out;
    if (status == Z_STREAM_END) {
      if (stream.avail_in == 0) return used;
      if (inflateReset(&stream) != Z_OK) {
        return fail(ErrorCode::kUnknownServerError, "zlib could not reset");
      }
      continue;  // another gzip member follows
    }
    if (status == Z_OK || (status == Z_BUF_ERROR && stream.avail_out == 0)) continue;
    if (status == Z_BUF_ERROR) return fail(ErrorCode::kCorruptMessage, "truncated");
    if (status == Z_MEM_ERROR) return fail(ErrorCode::kUnknownServerError, "zlib out of memory");
    return fail(ErrorCode::kCorruptMessage,
                stream.msg != nullptr ? stream.msg : "not a valid gzip stream");
  }
}

Result<std::size_t> RecordDecompressor::unsnappy(std::span<const std::uint8_t> in,
                                                 std::size_t max_bytes) {
  std::size_t used = 0;
  // Appends one raw snappy block, whose header states its uncompressed size.
  auto append_block = [&](std::span<const std::uint8_t> block) -> Status {
    std::size_t size = 0;
    if (snappy_uncompressed_length(as_chars(block.data()), block.size(), &size) != SNAPPY_OK) {
      return fail(ErrorCode::kCorruptMessage, "snappy block has no valid length");
    }
    if (size > max_bytes - used) return fail(ErrorCode::kInvalidRecord, "output exceeds the limit");
    if (used + size > capacity_) {
      reserve(used, std::max(used + size, std::min(capacity_ * 2, max_bytes)));
    }
    std::size_t written = size;
    if (snappy_uncompress(as_chars(block.data()), block.size(),
                          reinterpret_cast<char*>(buffer_.get() + used), &written) != SNAPPY_OK ||
        written != size) {
      return fail(ErrorCode::kCorruptMessage, "snappy block does not decode");
    }
    used += size;
    return {};
  };
  if (in.size() < kXerialMagic.size() ||
      !std::equal(kXerialMagic.begin(), kXerialMagic.end(), in.begin())) {
    Status status = append_block(in);  // librdkafka: one raw block
    if (!status) return status.error();
    return used;
  }
  if (in.size() < kXerialHeaderSize) {
    return fail(ErrorCode::kCorruptMessage, "xerial header is truncated");
  }
  std::size_t position = kXerialHeaderSize;
  while (position < in.size()) {
    if (in.size() - position < 4) {
      return fail(ErrorCode::kCorruptMessage, "xerial block length is truncated");
    }
    const std::uint32_t length = load_big_endian32(in.data() + position);
    position += 4;
    if (length > in.size() - position) {
      return fail(ErrorCode::kCorruptMessage, "xerial block runs past the payload");
    }
    Status status = append_block(in.subspan(position, length));
    if (!status) return status.error();
    position += length;
  }
  return used;
}

Result<std::size_t> RecordDecompressor::unlz4(std::span<const std::uint8_t> in,
                                              std::size_t max_bytes) {
  if (contexts_->lz4 == nullptr) {
    if (LZ4F_isError(LZ4F_createDecompressionContext(&contexts_->lz4, LZ4F_VERSION))) {
      contexts_->lz4 = nullptr;
      return fail(ErrorCode::kUnknownServerError, "lz4 could not start");
    }
  } else {
    LZ4F_resetDecompressionContext(contexts_->lz4);
  }
  const std::size_t cap = cap_for(max_bytes);
  std::size_t used = 0;
  std::size_t position = 0;
  for (;;) {
    const std::size_t free = room(used, cap);
    if (free == 0) return fail(ErrorCode::kInvalidRecord, "output exceeds the limit");
    std::size_t written = free;
    std::size_t read = in.size() - position;
    const std::size_t status = LZ4F_decompress(contexts_->lz4, buffer_.get() + used, &written,
                                               in.data() + position, &read, nullptr);
    if (LZ4F_isError(status)) return fail(ErrorCode::kCorruptMessage, LZ4F_getErrorName(status));
    position += read;
    used += written;
    if (status == 0) {  // a frame ended
      if (position == in.size()) return used;
      continue;  // another frame follows
    }
    // Input used up with room to spare: the frame is cut short. (With the output full, the
    // decoder may still hold output: go round and grow.)
    if (position == in.size() && written < free)
      return fail(ErrorCode::kCorruptMessage, "truncated");
    if (read == 0 && written == 0) return fail(ErrorCode::kCorruptMessage, "lz4 made no progress");
  }
}

Result<std::size_t> RecordDecompressor::unzstd(std::span<const std::uint8_t> in,
                                               std::size_t max_bytes) {
  ZSTD_DCtx*& context = contexts_->zstd;
  if (context == nullptr) {
    context = ZSTD_createDCtx();
    if (context == nullptr) return fail(ErrorCode::kUnknownServerError, "zstd could not start");
  } else {
    ZSTD_DCtx_reset(context, ZSTD_reset_session_only);
  }
  ZSTD_DCtx_setParameter(context, ZSTD_d_windowLogMax, zstd_window_log_for(max_bytes));
  const std::size_t cap = cap_for(max_bytes);
  std::size_t hint = 0;
  const unsigned long long content_size = ZSTD_getFrameContentSize(in.data(), in.size());
  if (content_size != ZSTD_CONTENTSIZE_UNKNOWN && content_size != ZSTD_CONTENTSIZE_ERROR) {
    hint = static_cast<std::size_t>(std::min<unsigned long long>(content_size, cap));
  }
  ZSTD_inBuffer input{in.data(), in.size(), 0};
  std::size_t used = 0;
  for (;;) {
    const std::size_t free = room(used, cap, hint);
    if (free == 0) return fail(ErrorCode::kInvalidRecord, "output exceeds the limit");
    ZSTD_outBuffer output{buffer_.get() + used, free, 0};
    const std::size_t status = ZSTD_decompressStream(context, &output, &input);
    used += output.pos;
    if (ZSTD_isError(status) != 0) {
      if (ZSTD_getErrorCode(status) == ZSTD_error_frameParameter_windowTooLarge) {
        return fail(ErrorCode::kInvalidRecord, "zstd window is larger than the limit allows");
      }
      return fail(ErrorCode::kCorruptMessage, ZSTD_getErrorName(status));
    }
    if (status == 0) {  // a frame ended
      if (input.pos == input.size) return used;
      continue;  // another frame follows
    }
    if (input.pos == input.size && output.pos < output.size) {
      return fail(ErrorCode::kCorruptMessage, "truncated");
    }
  }
}

std::size_t RecordDecompressor::room(std::size_t used, std::size_t cap, std::size_t size_hint) {
  if (used >= cap) return 0;
  if (capacity_ <= used) {
    const std::size_t doubled = used > cap / 2 ? cap : used * 2;
    reserve(used, std::min(cap, std::max({kInitialCapacity, doubled, size_hint})));
  } else if (used == 0 && capacity_ < std::min(size_hint, cap)) {
    reserve(0, std::min(size_hint, cap));
  }
  return std::min(capacity_, cap) - used;
}

void RecordDecompressor::reserve(std::size_t used, std::size_t capacity) {
  if (capacity <= capacity_) return;
  auto bigger = std::make_unique_for_overwrite<std::uint8_t[]>(capacity);
  if (used > 0) std::memcpy(bigger.get(), buffer_.get(), used);
  buffer_ = std::move(bigger);
  capacity_ = capacity;
}

ErrorCode RecordDecompressor::fail(ErrorCode code, std::string_view reason) {
  last_error_ = reason;
  return code;
}

}  // namespace kgroups::protocol
