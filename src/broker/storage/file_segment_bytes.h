// SPDX-License-Identifier: Apache-2.0
//
// FileSegmentBytes: one segment of a log kept in a log directory (--log-dirs), as Kafka keeps
// it: the `<base offset>.log` file of record batches, mapped into the broker's memory
// (MAP_SHARED) so that appends write the page cache directly and Fetch sends from the mapping
// as it sends from in-memory segments, with no copy through a buffer of its own; and its
// `.index` and `.timeindex`, written when the segment closes (and rebuilt by recovery when
// missing or wrong).
//
// Disk space is reserved (fallocate) before a batch is written, so a full disk is an error
// of the append (std::system_error, ENOSPC: Produce answers KAFKA_STORAGE_ERROR), never a
// SIGBUS on a page the file system cannot back. While a segment is open its file may be longer
// than its batches: the reserved, zeroed tail, which close() (or recovery after a crash) cuts.
// The mapping outlives discard() (the files are unlinked, as queued responses may still send
// from it) and goes with the last reference.
// Not thread-safe: the broker's network thread owns every segment.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>

#include "broker/storage/segment_bytes.h"

namespace kgroups::broker {

class FileSegmentBytes final : public SegmentBytes {
 public:
  // Creates (or empties) `log_file`, the segment of offsets from `base_offset`, able to hold
  // `capacity` bytes; no disk space is reserved yet. Throws std::system_error.
  static std::shared_ptr<FileSegmentBytes> create(std::filesystem::path log_file,
                                                  std::int64_t base_offset, std::size_t capacity);
  // Maps `log_file`, a closed segment whose first `size` bytes recovery checked: the log
  // appends to it no more. Throws std::system_error.
  static std::shared_ptr<FileSegmentBytes> open_closed(std::filesystem::path log_file,
                                                       std::int64_t base_offset, std::size_t size);

  FileSegmentBytes(const FileSegmentBytes&) = delete;
  FileSegmentBytes& operator=(const FileSegmentBytes&) = delete;
  FileSegmentBytes(FileSegmentBytes&&) = delete;
  FileSegmentBytes& operator=(FileSegmentBytes&&) = delete;
  ~FileSegmentBytes() override;

  // Reserves disk space for the first `bytes` bytes (in steps, so appends rarely ask).
  void ensure_writable(std::size_t bytes) override;
  // Cuts the file to `used` bytes (unless `pinned`: then when the last reference goes) and
  // writes the `.index` and `.timeindex` of its batches, unless they already hold that.
  void close(std::size_t used, bool pinned) override;
  // Zeroes the bytes from `used` on (a new leader's truncation), so that recovery never
  // brings them back.
  void truncated(std::size_t used) override;
  // Unlinks the segment's files (retention, deletion, truncation, a cleaned replacement).
  void discard() override;
  // fdatasync: what was written is on the disk.
  void sync() override;
  // The log cleaner's swap, as Kafka's: begin_swap() syncs this `.log.cleaned` file and
  // renames it `.log.swap` (from then on recovery completes the swap); after the old segment
  // was discarded, finish_swap() renames it `.log`.
  void begin_swap();
  void finish_swap();

  [[nodiscard]] const std::filesystem::path& log_file() const { return log_file_; }
  [[nodiscard]] std::int64_t base_offset() const { return base_offset_; }

  // Writes the `.index` and `.timeindex` of the first `used` bytes of the segment `data` of
  // `log_file` unless the files already hold exactly that; returns whether it wrote any.
  // Errors are logged, not thrown: recovery rebuilds the indexes.
  static bool write_indexes(const std::filesystem::path& log_file, std::int64_t base_offset,
                            const std::uint8_t* data, std::size_t used);

 private:
  FileSegmentBytes(std::uint8_t* data, std::size_t capacity, std::size_t mapped, int fd,
                   std::filesystem::path log_file, std::int64_t base_offset, std::size_t reserved);
  void rename_log_file(std::filesystem::path to);

  std::size_t mapped_ = 0;  // bytes mapped: the capacity rounded up to whole pages
  int fd_ = -1;
  std::filesystem::path log_file_;
  std::int64_t base_offset_ = 0;
  std::size_t reserved_ = 0;     // bytes of the file (reserved on disk)
  std::size_t closed_size_ = 0;  // the batches' bytes, once closed
  bool closed_ = false;
  bool discarded_ = false;
};

}  // namespace kgroups::broker
