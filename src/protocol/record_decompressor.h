// SPDX-License-Identifier: Apache-2.0
//
// RecordDecompressor: expands the records section of a compressed magic-2 batch with the
// codec its attributes name: gzip (zlib, gzip framing, concatenated members allowed),
// snappy (the xerial framing the Java client writes, or one raw block as librdkafka writes),
// lz4 (the LZ4 frame format, one or more frames) and zstd (one or more frames).
// The output goes into a buffer the decompressor owns and reuses: once it has grown to the
// largest output seen, decompressing allocates nothing. The codec contexts are made on first
// use of each codec and reused too. Output never grows past the caller's limit: a payload
// that would expand further stops there (a gzip bomb costs at most `max_bytes`).
// Not thread-safe: use one per thread (or per connection). Movable, not copyable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "protocol/byte_view.h"
#include "protocol/record_batch.h"
#include "protocol/result.h"

namespace kgroups::protocol {

class RecordDecompressor {
 public:
  RecordDecompressor();
  ~RecordDecompressor();
  RecordDecompressor(RecordDecompressor&&) noexcept;
  RecordDecompressor& operator=(RecordDecompressor&&) noexcept;
  RecordDecompressor(const RecordDecompressor&) = delete;
  RecordDecompressor& operator=(const RecordDecompressor&) = delete;

  // Decompresses `compressed` (the bytes after a batch's 61-byte header) with `codec`.
  // Returns a view of the output, valid until the next call or the decompressor's end.
  // The whole input must be consumed: bytes after the last frame are an error.
  // Errors:
  // - kCorruptMessage: the payload does not decode (truncated, garbled, checksum mismatch,
  //   trailing bytes);
  // - kInvalidRecord: the output would be larger than `max_bytes` (nothing past the limit
  //   is produced);
  // - kUnsupportedCompressionType: `codec` is kNone or not a codec.
  Result<ByteView> decompress(Compression codec, std::span<const std::uint8_t> compressed,
                              std::size_t max_bytes);

  // Why the last decompress() failed, in a few words ("ERROR_frameType_unknown", "output
  // exceeds the limit"); "" after a success. Static text: valid for the life of the program.
  [[nodiscard]] std::string_view last_error() const { return last_error_; }

  // Bytes held by the output buffer: the high-water mark of the outputs so far (plus at most
  // one byte per call to detect output past the limit).
  [[nodiscard]] std::size_t buffer_capacity() const { return capacity_; }

 private:
  struct Contexts;  // the zlib, LZ4F and zstd contexts, made on first use

  // Each decodes the whole input into buffer_ and returns the bytes produced, at most
  // `max_bytes` (kInvalidRecord past that).
  Result<std::size_t> gunzip(std::span<const std::uint8_t> in, std::size_t max_bytes);
  Result<std::size_t> unsnappy(std::span<const std::uint8_t> in, std::size_t max_bytes);
  Result<std::size_t> unlz4(std::span<const std::uint8_t> in, std::size_t max_bytes);
  Result<std::size_t> unzstd(std::span<const std::uint8_t> in, std::size_t max_bytes);

  // Room for output in a streaming decoder: grows buffer_ (keeping the first `used` bytes)
  // when it is full, never past `cap` bytes. Returns the bytes free after `used`, 0 once
  // `used` reached `cap`.
  std::size_t room(std::size_t used, std::size_t cap, std::size_t size_hint = 0);
  // Grows buffer_ to at least `capacity` bytes, keeping the first `used`.
  void reserve(std::size_t used, std::size_t capacity);
  // Records `reason` for last_error() and returns `code`.
  ErrorCode fail(ErrorCode code, std::string_view reason);

  std::unique_ptr<Contexts> contexts_;
  std::unique_ptr<std::uint8_t[]> buffer_;  // output; capacity_ bytes
  std::size_t capacity_ = 0;
  std::string_view last_error_;  // static text
};

}  // namespace kgroups::protocol
