// SPDX-License-Identifier: Apache-2.0
#include "log/record_arena.h"

#include <algorithm>

namespace kgroups {

char* RecordArena::allocate_slow(std::size_t size, std::size_t spare) {
  chunks_.reserve(chunks_.size() + 1);  // may throw: nothing changed yet
  const std::size_t needed = size + spare;
  if (needed > kMaxChunkBytes / 4) {
    // A large record gets a chunk of its own; the current chunk stays open.
    chunks_.push_back(std::make_unique_for_overwrite<char[]>(needed));
    reserved_bytes_ += needed;
    return chunks_.back().get();
  }
  const std::size_t chunk_bytes = std::max(next_chunk_bytes_, needed);
  chunks_.push_back(std::make_unique_for_overwrite<char[]>(chunk_bytes));
  reserved_bytes_ += chunk_bytes;
  next_chunk_bytes_ = std::min(next_chunk_bytes_ * 2, kMaxChunkBytes);
  next_ = chunks_.back().get();
  end_ = next_ + chunk_bytes;
  char* bytes = next_;
  next_ += size;
  return bytes;
}

}  // namespace kgroups
