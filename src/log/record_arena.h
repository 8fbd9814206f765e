// SPDX-License-Identifier: Apache-2.0
//
// RecordArena: append-only byte storage for one partition's records. Bytes are
// carved out of large chunks that never move and are given back only with the
// arena, so a pointer returned by allocate() stays valid for the arena's
// lifetime. Chunks come from memory::ChunkSupply::shared(), already faulted in,
// and go back to it (warm, for the next arena) when the arena dies.
// Chunks start small (so thousands of near-empty partitions stay cheap) and
// double up to kMaxChunkBytes; a request larger than a quarter of that gets a
// chunk of its own, so the bytes wasted at chunk ends stay a small fraction
// (the supply rounds it up to a power of two; when that leaves more room than
// the current chunk has, later records go there).
// Each allocation can ask for `spare` bytes that stay free right after it in
// the same chunk (PartitionLog writes a jump to the next chunk there).
// Not thread-safe: the owner serializes calls.
#pragma once

#include <cstddef>
#include <vector>

#include "memory/chunk_supply.h"

namespace kgroups {

class RecordArena {
 public:
  static constexpr std::size_t kMinChunkBytes = std::size_t{4} << 10;
  static constexpr std::size_t kMaxChunkBytes = std::size_t{256} << 10;

  RecordArena() = default;
  RecordArena(const RecordArena&) = delete;
  RecordArena& operator=(const RecordArena&) = delete;
  RecordArena(RecordArena&&) noexcept = default;
  RecordArena& operator=(RecordArena&&) noexcept = default;

  // `size` contiguous writable bytes that never move, followed by at least
  // `spare` unallocated bytes in the same chunk. Throws std::bad_alloc (and then
  // changes nothing) if memory runs out.
  [[nodiscard]] char* allocate(std::size_t size, std::size_t spare = 0) {
    if (size + spare <= static_cast<std::size_t>(end_ - next_)) {
      char* bytes = next_;
      next_ += size;
      return bytes;
    }
    return allocate_slow(size, spare);
  }

  // Marks `size` bytes at `at` as used if that is where the next allocation
  // would start (so it will not hand them out); otherwise does nothing. Used
  // for spare bytes that the caller has written into after all.
  void mark_used(const char* at, std::size_t size) noexcept {
    if (at == next_) next_ += size;
  }

  // Bytes of the chunks held (their full capacity, not just the used part).
  [[nodiscard]] std::size_t reserved_bytes() const noexcept { return reserved_bytes_; }

 private:
  char* allocate_slow(std::size_t size, std::size_t spare);

  std::vector<memory::Chunk> chunks_;  // every chunk taken, given back with the arena
  char* next_ = nullptr;               // first free byte of the current chunk
  char* end_ = nullptr;                // one past the current chunk
  std::size_t next_chunk_bytes_ = kMinChunkBytes;
  std::size_t reserved_bytes_ = 0;
};

}  // namespace kgroups
