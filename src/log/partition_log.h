// SPDX-License-Identifier: Apache-2.0
//
// PartitionLog: the append-only record log of one partition. Offsets are dense
// from 0. Each record is stored in a RecordArena as
//   varint(key size << 1 | key is text) varint(value size << 1 | value is text) key value
// and found through an offset index of fixed blocks of pointers, so appending
// never moves or copies earlier records and costs no allocation per record
// (about 10 bytes of overhead for small records: an 8-byte index entry and two
// one-byte length prefixes). Bytes never move once written, so a Record may
// view them for the lifetime of the log.
// Not thread-safe: Topic serializes access per partition.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "kgroups/record.h"
#include "log/record_arena.h"

namespace kgroups {

class PartitionLog {
 public:
  static constexpr std::int64_t kIndexBlockEntries = 1024;

  explicit PartitionLog(int partition) : partition_(partition) {}

  // Copies the record in and returns its offset. Throws std::bad_alloc and then
  // changes nothing if memory runs out.
  std::int64_t append(std::string_view key, std::string_view value, Encoding key_encoding,
                      Encoding value_encoding);

  // The offset the next record will get (= the number of records).
  [[nodiscard]] std::int64_t end_offset() const noexcept { return end_offset_; }

  // The record at `offset`; requires 0 <= offset < end_offset().
  [[nodiscard]] Record read(std::int64_t offset) const;

  // Appends the records at offsets [from, from + count) to `out`; requires
  // 0 <= from and from + count <= end_offset().
  void read_into(std::int64_t from, std::int64_t count, std::vector<Record>& out) const;

  // Bytes held for records and their index: arena chunks, index blocks and the
  // block directory (capacities, not just the used parts).
  [[nodiscard]] std::size_t memory_bytes() const noexcept;

 private:
  using IndexBlock = std::unique_ptr<const char*[]>;

  [[nodiscard]] const char* locate(std::int64_t offset) const noexcept {
    return index_blocks_[static_cast<std::size_t>(offset / kIndexBlockEntries)]
                        [static_cast<std::size_t>(offset % kIndexBlockEntries)];
  }

  int partition_;
  std::int64_t end_offset_ = 0;           // offset of the next record
  RecordArena arena_;                     // the records' bytes
  std::vector<IndexBlock> index_blocks_;  // offset -> record start, kIndexBlockEntries per block
};

}  // namespace kgroups
