// SPDX-License-Identifier: Apache-2.0
//
// PartitionLog: the append-only record log of one partition. Offsets are dense
// from 0; bytes never move once written, so a Record may view them for the
// lifetime of the log.
//
// Layout: records are written one after the other into a RecordArena as
//   varint(key size << 2 | key is text << 1) varint(value size << 1 | value is text) key value
// (two header bytes for keys under 32 bytes and values under 64). Where the next
// record does not follow the previous one (a new chunk, or a large record in a
// chunk of its own), a jump is written after the previous record: the byte 0x01
// (never the first byte of a record header, whose bit 0 is 0) and the address
// of the next record. The index keeps the address of every kRunRecords-th
// record only; a read walks from there. So appending costs no allocation per
// record and about 2.3 bytes of overhead for small records, and sequential
// reads just walk memory.
// Not thread-safe: Topic serializes access per partition.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "kgroups/record.h"
#include "kgroups/share_record.h"
#include "log/record_arena.h"

namespace kgroups {

class PartitionLog {
 public:
  // One index entry per kRunRecords records: a read skips at most
  // kRunRecords - 1 record headers.
  static constexpr std::int64_t kRunRecords = 32;

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
  // 0 <= from, 0 <= count and from + count <= end_offset().
  void read_into(std::int64_t from, std::int64_t count, std::vector<Record>& out) const;
  // The same as ShareRecords delivered delivery_count times.
  void read_into(std::int64_t from, std::int64_t count, int delivery_count,
                 std::vector<ShareRecord>& out) const;

  // Bytes held for records and their index (capacities, not just the used parts).
  [[nodiscard]] std::size_t memory_bytes() const noexcept;

 private:
  // The stored bytes of the record at `offset`, reached from its run's start.
  [[nodiscard]] const char* find(std::int64_t offset) const noexcept;
  // Calls emit(record) for each record at offsets [from, from + count).
  template <typename Emit>
  void read_each(std::int64_t from, std::int64_t count, Emit emit) const;

  int partition_;
  std::int64_t end_offset_ = 0;          // offset of the next record
  char* write_end_ = nullptr;            // one past the last record: a jump may go here
  RecordArena arena_;                    // the records' bytes
  std::vector<const char*> run_starts_;  // run_starts_[i]: record i * kRunRecords
};

}  // namespace kgroups
