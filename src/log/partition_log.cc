// SPDX-License-Identifier: Apache-2.0
#include "log/partition_log.h"

#include <cstring>

#include "kgroups/record.h"

namespace kgroups {
namespace {

// A size with the text flag in bit 0, as stored in the record header.
std::uint64_t tagged_size(std::string_view bytes, Encoding encoding) {
  return (static_cast<std::uint64_t>(bytes.size()) << 1U) |
         static_cast<std::uint64_t>(encoding == Encoding::kText);
}

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
  std::uint64_t result = 0;
  unsigned shift = 0;
  auto byte = static_cast<std::uint8_t>(*in++);
  while ((byte & 0x80U) != 0) {
    result |= static_cast<std::uint64_t>(byte & 0x7FU) << shift;
    shift += 7;
    byte = static_cast<std::uint8_t>(*in++);
  }
  value = result | (static_cast<std::uint64_t>(byte) << shift);
  return in;
}

// Decodes the stored record starting at `stored` into `record`'s views and tags.
void decode(const char* stored, Record& record) {
  std::uint64_t key_tag = 0;
  std::uint64_t value_tag = 0;
  stored = read_varint(stored, key_tag);
  stored = read_varint(stored, value_tag);
  const std::size_t key_size = key_tag >> 1U;
  record.key = std::string_view(stored, key_size);
  record.value = std::string_view(stored + key_size, value_tag >> 1U);
  record.key_encoding = (key_tag & 1U) != 0 ? Encoding::kText : Encoding::kBytes;
  record.value_encoding = (value_tag & 1U) != 0 ? Encoding::kText : Encoding::kBytes;
}

}  // namespace

std::int64_t PartitionLog::append(std::string_view key, std::string_view value,
                                  Encoding key_encoding, Encoding value_encoding) {
  const std::int64_t offset = end_offset_;
  if (offset % kIndexBlockEntries == 0 &&
      static_cast<std::size_t>(offset / kIndexBlockEntries) == index_blocks_.size()) {
    index_blocks_.reserve(index_blocks_.size() + 1);
    index_blocks_.push_back(std::make_unique_for_overwrite<const char*[]>(kIndexBlockEntries));
  }
  const std::uint64_t key_tag = tagged_size(key, key_encoding);
  const std::uint64_t value_tag = tagged_size(value, value_encoding);
  const std::size_t header_size =
      key_tag < 0x80U && value_tag < 0x80U ? 2 : varint_size(key_tag) + varint_size(value_tag);
  char* stored = arena_.allocate(header_size + key.size() + value.size());

  char* out = write_varint(stored, key_tag);
  out = write_varint(out, value_tag);
  if (!key.empty()) std::memcpy(out, key.data(), key.size());
  if (!value.empty()) std::memcpy(out + key.size(), value.data(), value.size());

  index_blocks_[static_cast<std::size_t>(offset / kIndexBlockEntries)]
               [static_cast<std::size_t>(offset % kIndexBlockEntries)] = stored;
  end_offset_ = offset + 1;
  return offset;
}

Record PartitionLog::read(std::int64_t offset) const {
  Record record;
  record.partition = partition_;
  record.offset = offset;
  decode(locate(offset), record);
  return record;
}

void PartitionLog::read_into(std::int64_t from, std::int64_t count,
                             std::vector<Record>& out) const {
  Record record;
  record.partition = partition_;
  for (std::int64_t offset = from; offset < from + count; ++offset) {
    record.offset = offset;
    decode(locate(offset), record);
    out.push_back(record);
  }
}

std::size_t PartitionLog::memory_bytes() const noexcept {
  return arena_.reserved_bytes() +
         index_blocks_.size() * static_cast<std::size_t>(kIndexBlockEntries) * sizeof(const char*) +
         index_blocks_.capacity() * sizeof(IndexBlock);
}

}  // namespace kgroups
