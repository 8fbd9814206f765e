// SPDX-License-Identifier: Apache-2.0
#include "log/record_arena.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kgroups {
namespace {

TEST(RecordArena, BytesNeverMoveWhileMoreAreAllocated) {
  RecordArena arena;
  std::vector<std::pair<char*, std::string>> written;
  for (int i = 0; i < 20000; ++i) {
    const std::string text = "record-" + std::to_string(i);
    char* bytes = arena.allocate(text.size());
    text.copy(bytes, text.size());
    written.emplace_back(bytes, text);
  }
  for (const auto& [bytes, text] : written) {
    EXPECT_EQ(std::string(bytes, text.size()), text);
  }
}

TEST(RecordArena, ConsecutiveSmallAllocationsShareAChunk) {
  RecordArena arena;
  char* first = arena.allocate(10);
  char* second = arena.allocate(10);
  EXPECT_EQ(second, first + 10);
  EXPECT_EQ(arena.reserved_bytes(), RecordArena::kMinChunkBytes);
}

TEST(RecordArena, ChunksGrowUpToTheMaximum) {
  RecordArena arena;
  std::size_t allocated = 0;
  while (allocated < 64 * RecordArena::kMaxChunkBytes) {
    (void)arena.allocate(1000);
    allocated += 1000;
  }
  // Doubling chunks capped at the maximum: the waste stays within one chunk.
  EXPECT_LE(arena.reserved_bytes(), allocated + RecordArena::kMaxChunkBytes);
}

TEST(RecordArena, LargeAllocationGetsItsOwnChunkAndKeepsTheCurrentOne) {
  RecordArena arena;
  char* small = arena.allocate(8);
  char* large = arena.allocate(RecordArena::kMaxChunkBytes);
  char* next_small = arena.allocate(8);
  EXPECT_NE(large, nullptr);
  EXPECT_EQ(next_small, small + 8);
  EXPECT_EQ(arena.reserved_bytes(), RecordArena::kMinChunkBytes + RecordArena::kMaxChunkBytes);
  EXPECT_NE(large, small);
}

TEST(RecordArena, TheRestOfALargeRecordsChunkIsUsedWhenItHasMoreRoom) {
  RecordArena arena;
  (void)arena.allocate(RecordArena::kMinChunkBytes - 100);        // 100 bytes left here
  const std::size_t large = RecordArena::kMaxChunkBytes / 4 + 1;  // rounded up to 128 KiB
  char* bytes = arena.allocate(large);
  char* next = arena.allocate(1000);
  EXPECT_EQ(next, bytes + large);
  EXPECT_EQ(arena.reserved_bytes(),
            RecordArena::kMinChunkBytes + 2 * (RecordArena::kMaxChunkBytes / 4));
}

TEST(RecordArena, ChunksGoBackToTheSharedSupplyWithTheArena) {
  memory::ChunkSupply::shared().trim();
  {
    RecordArena arena;
    (void)arena.allocate(RecordArena::kMaxChunkBytes / 8);
  }
  EXPECT_GE(memory::ChunkSupply::shared().cached_bytes(), RecordArena::kMaxChunkBytes / 8);
}

}  // namespace
}  // namespace kgroups
