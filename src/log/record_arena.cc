// SPDX-License-Identifier: Apache-2.0
#include "log/record_arena.h"

#include <algorithm>
#include <cstdint>

namespace kgroups {
namespace {

char* as_chars(std::uint8_t* bytes) noexcept { return reinterpret_cast<char*>(bytes); }

}  // namespace

char* RecordArena::allocate_slow(std::size_t size, std::size_t spare) {
  chunks_.reserve(chunks_.size() + 1);  // may throw: nothing changed yet
  const std::size_t needed = size + spare;
  if (needed > kMaxChunkBytes / 4) {
    // A large record gets a chunk of its own. The current chunk stays open
    // unless the large chunk's rest (chunks are powers of two) has more room.
    chunks_.push_back(memory::ChunkSupply::shared().take(needed));
    const memory::Chunk& chunk = chunks_.back();
    reserved_bytes_ += chunk.size();
    char* bytes = as_chars(chunk.data());
    if (chunk.size() - size > static_cast<std::size_t>(end_ - next_)) {
      next_ = bytes + size;
      end_ = bytes + chunk.size();
    }
    return bytes;
  }
  chunks_.push_back(memory::ChunkSupply::shared().take(std::max(next_chunk_bytes_, needed)));
  const memory::Chunk& chunk = chunks_.back();
  reserved_bytes_ += chunk.size();
  next_chunk_bytes_ = std::min(next_chunk_bytes_ * 2, kMaxChunkBytes);
  next_ = as_chars(chunk.data());
  end_ = next_ + chunk.size();
  char* bytes = next_;
  next_ += size;
  return bytes;
}

}  // namespace kgroups
