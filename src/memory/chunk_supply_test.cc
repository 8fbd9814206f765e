// SPDX-License-Identifier: Apache-2.0
#include "memory/chunk_supply.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdint>
#include <cstring>
#include <new>
#include <thread>
#include <utility>
#include <vector>

namespace kgroups::memory {
namespace {

long minor_faults_of_this_thread() {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  return usage.ru_minflt;
}

TEST(ChunkSupply, ChunksArePowersOfTwoAtLeastAsLargeAsAskedFor) {
  ChunkSupply supply;
  for (std::size_t asked : {std::size_t{4096}, std::size_t{5000}, std::size_t{65536},
                            std::size_t{300000}, ChunkSupply::kMaxChunkBytes}) {
    const Chunk chunk = supply.take(asked);
    EXPECT_GE(chunk.size(), asked);
    EXPECT_LT(chunk.size(), 2 * asked);
    EXPECT_EQ(chunk.size() & (chunk.size() - 1), 0U) << chunk.size();
    std::memset(chunk.data(), 0xab, chunk.size());
  }
}

TEST(ChunkSupply, ChunksHeldAtTheSameTimeDoNotOverlap) {
  ChunkSupply supply;
  std::vector<Chunk> chunks;
  chunks.reserve(600);
  for (int i = 0; i < 600; ++i) chunks.push_back(supply.take(std::size_t{4096} << (i % 6)));
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    std::memset(chunks[i].data(), static_cast<int>(i & 0xff), chunks[i].size());
  }
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    const auto expected = static_cast<std::uint8_t>(i & 0xff);
    EXPECT_EQ(chunks[i].data()[0], expected);
    EXPECT_EQ(chunks[i].data()[chunks[i].size() - 1], expected);
  }
}

TEST(ChunkSupply, FaultsInItsFirstRegionAsFourKiBPagesAndThenTriesAHugePage) {
  ChunkSupply supply;  // the default: huge pages where cheap
  std::vector<Chunk> chunks;
  const std::size_t regions = HugePagePolicy::kFirstProbeAfterRegions + 4;
  chunks.reserve(2 * regions);
  for (std::size_t i = 0; i < 2 * regions; ++i)
    chunks.push_back(supply.take(ChunkSupply::kMaxChunkBytes));
  const HugePagePolicy::Counts counts = supply.region_counts();
  EXPECT_EQ(counts.small_regions + counts.huge_regions, regions);
  // At least the first region has 4 KiB pages; how many more depends on what they cost here.
  EXPECT_GE(counts.small_regions, 1U);
  EXPECT_GE(counts.huge_regions, 1U);
}

TEST(ChunkSupply, ChosenFaultInModesBypassThePolicy) {
  ChunkSupply supply({.fault_in = FaultIn::kPopulate});
  std::vector<Chunk> chunks;
  chunks.reserve(8);
  for (int i = 0; i < 8; ++i) chunks.push_back(supply.take(ChunkSupply::kMaxChunkBytes));
  EXPECT_EQ(supply.region_counts().small_regions, 0U);
  EXPECT_EQ(supply.region_counts().huge_regions, 0U);
}

TEST(ChunkSupply, CountsTheMappedBytesItsChunksHold) {
  ChunkSupply supply;
  Chunk regular = supply.take(5000);
  Chunk large = supply.take(2 * ChunkSupply::kMaxChunkBytes);
  const Chunk small = supply.take(100);  // from the heap: not counted here
  EXPECT_EQ(supply.held_mapped_bytes(), regular.size() + large.size());
  regular.reset();
  large.reset();
  EXPECT_EQ(supply.held_mapped_bytes(), 0U);
}

TEST(ChunkSupply, AGivenBackChunkIsHandedOutAgain) {
  ChunkSupply supply;
  Chunk first = supply.take(8192);
  std::uint8_t* const address = first.data();
  first.reset();
  EXPECT_FALSE(first);
  EXPECT_GE(supply.cached_bytes(), 8192U);
  const Chunk again = supply.take(8192);
  EXPECT_EQ(again.data(), address);
}

TEST(ChunkSupply, WritingATakenChunkTakesNoPageFault) {
  ChunkSupply supply;
  const Chunk chunk = supply.take(std::size_t{512} << 10);  // 128 pages
  // Under AddressSanitizer, memset first checks the chunk's shadow memory (one byte per 8),
  // whose pages fault in on first use; the chunk's own 128 pages still must not.
#if defined(__SANITIZE_ADDRESS__)
  const long shadow_pages = static_cast<long>(chunk.size() / 8 / 4096);
#else
  const long shadow_pages = 0;
#endif
  const long before = minor_faults_of_this_thread();
  std::memset(chunk.data(), 1, chunk.size());
  EXPECT_LT(minor_faults_of_this_thread() - before, 8 + shadow_pages);
}

TEST(ChunkSupply, FreeChunksBeyondTheCapGoBackToTheSystem) {
  ChunkSupply supply(ChunkSupplyOptions{.max_cached_bytes = std::size_t{256} << 10});
  std::vector<Chunk> chunks;
  chunks.reserve(32);
  for (int i = 0; i < 32; ++i) chunks.push_back(supply.take(std::size_t{64} << 10));
  chunks.clear();
  EXPECT_LE(supply.cached_bytes(), std::size_t{256} << 10);
  // Memory handed out after that is still usable.
  const Chunk chunk = supply.take(std::size_t{64} << 10);
  std::memset(chunk.data(), 2, chunk.size());
}

TEST(ChunkSupply, ARaisedCapKeepsMoreFreeChunks) {
  ChunkSupply supply(ChunkSupplyOptions{.max_cached_bytes = std::size_t{64} << 10});
  supply.set_max_cached_bytes(std::size_t{1} << 20);
  std::vector<Chunk> chunks;
  chunks.reserve(8);
  for (int i = 0; i < 8; ++i) chunks.push_back(supply.take(std::size_t{64} << 10));
  chunks.clear();
  EXPECT_EQ(supply.cached_bytes(), std::size_t{512} << 10);
}

TEST(ChunkSupply, TrimEmptiesTheCache) {
  ChunkSupply supply;
  supply.take(std::size_t{128} << 10).reset();
  EXPECT_GT(supply.cached_bytes(), 0U);
  supply.trim();
  EXPECT_EQ(supply.cached_bytes(), 0U);
  const Chunk chunk = supply.take(std::size_t{128} << 10);
  std::memset(chunk.data(), 3, chunk.size());
}

TEST(ChunkSupply, TrimLeavesHeldChunksBetweenFreedOnesIntact) {
  ChunkSupply supply;
  std::vector<Chunk> chunks;
  chunks.reserve(300);
  for (int i = 0; i < 300; ++i) chunks.push_back(supply.take(std::size_t{4096} << (i % 4)));
  for (std::size_t i = 0; i < chunks.size(); i += 2) chunks[i].reset();
  supply.trim();
  for (std::size_t i = 1; i < chunks.size(); i += 2) {
    std::memset(chunks[i].data(), 7, chunks[i].size());
    EXPECT_EQ(chunks[i].data()[chunks[i].size() - 1], 7);
  }
}

TEST(ChunkSupply, SmallAndLargeRequestsWork) {
  ChunkSupply supply;
  const Chunk small = supply.take(100);
  EXPECT_GE(small.size(), 100U);
  std::memset(small.data(), 4, small.size());
  const Chunk large = supply.take(3 * ChunkSupply::kMaxChunkBytes + 1);
  EXPECT_GE(large.size(), 3 * ChunkSupply::kMaxChunkBytes + 1);
  std::memset(large.data(), 5, large.size());
  EXPECT_EQ(supply.cached_bytes(), 0U);
}

TEST(ChunkSupply, ARequestTooLargeForMemoryThrowsAndChangesNothing) {
  ChunkSupply supply;
  supply.take(4096).reset();
  const std::size_t cached = supply.cached_bytes();
  EXPECT_THROW((void)supply.take(SIZE_MAX / 2), std::bad_alloc);
  EXPECT_THROW((void)supply.take(SIZE_MAX), std::bad_alloc);
  EXPECT_EQ(supply.cached_bytes(), cached);
}

TEST(ChunkSupply, AMovedChunkIsGivenBackOnce) {
  ChunkSupply supply;
  Chunk first = supply.take(4096);
  Chunk second = std::move(first);
  EXPECT_FALSE(first);  // NOLINT(bugprone-use-after-move): the moved-from state is the point
  EXPECT_TRUE(second);
  Chunk third;
  third = std::move(second);
  third.reset();
  EXPECT_EQ(supply.cached_bytes(), 4096U);
}

TEST(ChunkSupply, EveryFaultInStrategyGivesWritableChunks) {
  for (FaultIn fault_in :
       {FaultIn::kPopulate, FaultIn::kPopulateHugePages, FaultIn::kOnFirstTouch}) {
    ChunkSupply supply(ChunkSupplyOptions{.fault_in = fault_in});
    const Chunk chunk = supply.take(std::size_t{256} << 10);
    std::memset(chunk.data(), 6, chunk.size());
    EXPECT_EQ(chunk.data()[chunk.size() - 1], 6);
  }
}

TEST(ChunkSupply, ThreadsTakeAndGiveBackConcurrently) {
  ChunkSupply supply;
  auto churn = [&supply](int seed) {
    std::vector<Chunk> held;
    for (int i = 0; i < 2000; ++i) {
      held.push_back(supply.take(std::size_t{4096} << ((i + seed) % 5)));
      held.back().data()[0] = static_cast<std::uint8_t>(seed);
      if (held.size() > 20) held.erase(held.begin());
    }
  };
  std::thread other(churn, 1);
  churn(2);
  other.join();
  EXPECT_LE(supply.cached_bytes(), ChunkSupplyOptions{}.max_cached_bytes);
}

TEST(ChunkSupply, TheSharedSupplyIsOneObject) {
  EXPECT_EQ(&ChunkSupply::shared(), &ChunkSupply::shared());
  const Chunk chunk = ChunkSupply::shared().take(4096);
  EXPECT_TRUE(chunk);
}

}  // namespace
}  // namespace kgroups::memory
