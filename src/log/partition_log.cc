// SPDX-License-Identifier: Apache-2.0
#include "log/partition_log.h"

#include <cstring>

namespace kgroups {
namespace {

constexpr std::uint8_t kJumpMarker = 0x01;
constexpr std::size_t kJumpBytes = 1 + sizeof(const char*);

std::size_t varint_size(std::uint64_t value) {
  std::size_t size = 1;
  while (value >= 0x80U) {
    value >>= 7U;
    ++size;
  }
  return size;
}

char* write_varint(char* out, std::uint64_t value) {
  while (value >= 0x80U) {
    *out++ = static_cast<char>((value & 0x7FU) | 0x80U);
    value >>= 7U;
  }
  *out++ = static_cast<char>(value);
  return out;
}

const char* read_varint(const char* in, std::uint64_t& value) {
  auto byte = static_cast<std::uint8_t>(*in++);
  if (byte < 0x80U) {
    value = byte;
    return in;
  }
  std::uint64_t result = byte & 0x7FU;
  unsigned shift = 7;
  for (byte = static_cast<std::uint8_t>(*in++); (byte & 0x80U) != 0;
       byte = static_cast<std::uint8_t>(*in++)) {
    result |= static_cast<std::uint64_t>(byte & 0x7FU) << shift;
    shift += 7;
  }
  value = result | (static_cast<std::uint64_t>(byte) << shift);
  return in;
}

// Copies `size` bytes from `in` to `out` (like memcpy) with fixed-size moves
// for sizes 8 to 64, the common key and value sizes, instead of a library call:
// two overlapping moves from the head and the tail cover every size in a range.
template <std::size_t kBlock>
inline void copy_head_and_tail(char* out, const char* in, std::size_t size) {
  char head[kBlock];
  char tail[kBlock];
  std::memcpy(head, in, kBlock);
  std::memcpy(tail, in + size - kBlock, kBlock);
  std::memcpy(out, head, kBlock);
  std::memcpy(out + size - kBlock, tail, kBlock);
}

inline void copy_bytes(char* out, const char* in, std::size_t size) {
  if (size >= 8 && size <= 16) {
    copy_head_and_tail<8>(out, in, size);
  } else if (size > 16 && size <= 32) {
    copy_head_and_tail<16>(out, in, size);
  } else if (size > 32 && size <= 64) {
    copy_head_and_tail<32>(out, in, size);
  } else if (size != 0) {
    std::memcpy(out, in, size);
  }
}

// Decodes the record stored at `stored` (following a jump first) into the
// views and tags of `record`; returns the address just past it.
const char* decode(const char* stored, Record& record) {
  if (static_cast<std::uint8_t>(*stored) == kJumpMarker) {
    std::memcpy(static_cast<void*>(&stored), stored + 1, sizeof stored);
  }
  std::uint64_t key_tag = 0;
  std::uint64_t value_tag = 0;
  stored = read_varint(stored, key_tag);
  stored = read_varint(stored, value_tag);
  const std::size_t key_size = key_tag >> 2U;
  const std::size_t value_size = value_tag >> 1U;
  record.key = std::string_view(stored, key_size);
  record.value = std::string_view(stored + key_size, value_size);
  record.key_encoding = (key_tag & 2U) != 0 ? Encoding::kText : Encoding::kBytes;
  record.value_encoding = (value_tag & 1U) != 0 ? Encoding::kText : Encoding::kBytes;
  return stored + key_size + value_size;
}

}  // namespace

std::int64_t PartitionLog::append(std::string_view key, std::string_view value,
                                  Encoding key_encoding, Encoding value_encoding) {
  const std::int64_t offset = end_offset_;
  if (offset % kRunRecords == 0) run_starts_.reserve(run_starts_.size() + 1);
  const std::uint64_t key_tag =
      (static_cast<std::uint64_t>(key.size()) << 2U) | (key_encoding == Encoding::kText ? 2U : 0U);
  const std::uint64_t value_tag = (static_cast<std::uint64_t>(value.size()) << 1U) |
                                  (value_encoding == Encoding::kText ? 1U : 0U);
  const std::size_t header_size =
      key_tag < 0x80U && value_tag < 0x80U ? 2 : varint_size(key_tag) + varint_size(value_tag);
  // kJumpBytes stay free after the record so that a jump always fits there.
  char* stored = arena_.allocate(header_size + key.size() + value.size(), kJumpBytes);
  // Nothing below can throw.
  if (write_end_ != nullptr && stored != write_end_) {
    *write_end_ = static_cast<char>(kJumpMarker);
    std::memcpy(write_end_ + 1, static_cast<const void*>(&stored), sizeof stored);
    // A large record got a chunk of its own and the current chunk stays open:
    // the next record there must go after the jump.
    arena_.mark_used(write_end_, kJumpBytes);
  }
  char* out = write_varint(stored, key_tag);
  out = write_varint(out, value_tag);
  copy_bytes(out, key.data(), key.size());
  out += key.size();
  copy_bytes(out, value.data(), value.size());
  write_end_ = out + value.size();
  if (offset % kRunRecords == 0) run_starts_.push_back(stored);
  end_offset_ = offset + 1;
  return offset;
}

const char* PartitionLog::find(std::int64_t offset) const noexcept {
  const char* stored = run_starts_[static_cast<std::size_t>(offset / kRunRecords)];
  Record skipped;
  for (std::int64_t i = offset % kRunRecords; i > 0; --i) stored = decode(stored, skipped);
  return stored;
}

Record PartitionLog::read(std::int64_t offset) const {
  Record record;
  record.partition = partition_;
  record.offset = offset;
  decode(find(offset), record);
  return record;
}

template <typename Emit>
void PartitionLog::read_each(std::int64_t from, std::int64_t count, Emit emit) const {
  if (count <= 0) return;
  Record record;
  record.partition = partition_;
  const char* stored = find(from);
  for (std::int64_t offset = from; offset < from + count; ++offset) {
    record.offset = offset;
    stored = decode(stored, record);
    emit(record);
  }
}

void PartitionLog::read_into(std::int64_t from, std::int64_t count,
                             std::vector<Record>& out) const {
  read_each(from, count, [&out](const Record& record) { out.push_back(record); });
}

void PartitionLog::read_into(std::int64_t from, std::int64_t count, int delivery_count,
                             std::vector<ShareRecord>& out) const {
  read_each(from, count, [&out, delivery_count](const Record& record) {
    out.push_back(ShareRecord{record, delivery_count});
  });
}

std::size_t PartitionLog::memory_bytes() const noexcept {
  return arena_.reserved_bytes() + run_starts_.capacity() * sizeof(const char*);
}

}  // namespace kgroups
