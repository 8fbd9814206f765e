// SPDX-License-Identifier: Apache-2.0
//
// ChunkSupply: hands out blocks of memory ("chunks") whose pages are already
// faulted in, so that writing them on a hot path takes no page fault. Shared by
// the model's RecordArena and the broker's segments.
//
// Chunks of 4 KiB to 1 MiB have power-of-two sizes and are carved from 2 MiB
// regions that the supply maps from the system, 2 MiB-aligned, and faults in
// all at once (MADV_POPULATE_WRITE, then a write to each page): 2-60x cheaper
// than first-touch faults on this VM, depending on the page size and on whether
// the kernel has free huge pages. Each region is one transparent huge page
// (MADV_HUGEPAGE) only while huge pages prove cheap in this process, 4 KiB
// pages otherwise (huge_page_policy.h; docs/PERFORMANCE.md, "Issue 32"), so a
// machine whose kernel must first compact memory or whose host backs memory
// lazily does not pay 10-40x for them. A chunk given back goes onto
// a free list of its size and is handed out again warm, until the free lists
// hold max_cached_bytes; beyond that its pages are unmapped. Requests under
// 4 KiB come from the heap; requests over 1 MiB get a mapping of their own,
// unmapped when given back.
//
// Memory bounds: at most one partly carved region beyond the chunks that are
// held, plus max_cached_bytes (64 MiB by default) of free chunks; trim() gives
// both back. Thread-safe: every member may be called from any thread.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <utility>

#include "memory/huge_page_policy.h"

namespace kgroups::memory {

class ChunkSupply;

// Move-only owner of one block of bytes; gives it back to its supply when
// destroyed. Whoever holds a Chunk counts size() as its memory.
class Chunk {
 public:
  Chunk() noexcept = default;
  Chunk(const Chunk&) = delete;
  Chunk& operator=(const Chunk&) = delete;
  Chunk(Chunk&& other) noexcept
      : supply_(std::exchange(other.supply_, nullptr)),
        data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)) {}
  Chunk& operator=(Chunk&& other) noexcept {
    if (this != &other) {
      reset();
      supply_ = std::exchange(other.supply_, nullptr);
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  ~Chunk() { reset(); }

  [[nodiscard]] std::uint8_t* data() const noexcept { return data_; }
  // Capacity: at least the bytes asked for.
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  explicit operator bool() const noexcept { return data_ != nullptr; }

  // Gives the bytes back to the supply now; the chunk is empty afterwards.
  void reset() noexcept;

 private:
  friend class ChunkSupply;
  Chunk(ChunkSupply* supply, std::uint8_t* data, std::size_t size) noexcept
      : supply_(supply), data_(data), size_(size) {}

  ChunkSupply* supply_ = nullptr;
  std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

// How a new region's pages are faulted in. kHugePagesWhereCheap is the default;
// the others exist so that the cold-append benchmark can measure the
// alternatives (docs/PERFORMANCE.md). kOnFirstTouch breaks take()'s promise.
enum class FaultIn {
  kHugePagesWhereCheap,  // kPopulateHugePages or kPopulate, as HugePagePolicy decides
  kPopulateHugePages,    // madvise(MADV_HUGEPAGE), then kPopulate: 2 MiB pages where free
  kPopulate,             // madvise(MADV_POPULATE_WRITE) per region (or touching each page)
  kOnFirstTouch,         // not at all: the writer pays a page fault per 4 KiB
};

struct ChunkSupplyOptions {
  std::size_t max_cached_bytes = std::size_t{64} << 20;  // free chunks kept warm
  FaultIn fault_in = FaultIn::kHugePagesWhereCheap;
};

class ChunkSupply {
 public:
  static constexpr std::size_t kRegionBytes = std::size_t{2} << 20;
  static constexpr std::size_t kMinChunkBytes = std::size_t{4} << 10;
  static constexpr std::size_t kMaxChunkBytes = std::size_t{1} << 20;

  explicit ChunkSupply(ChunkSupplyOptions options = {}) noexcept : options_(options) {}
  ChunkSupply(const ChunkSupply&) = delete;
  ChunkSupply& operator=(const ChunkSupply&) = delete;
  // Every chunk must have been given back first.
  ~ChunkSupply();

  // The process-wide supply (never destroyed, so chunks held by static objects
  // may outlive every other static).
  static ChunkSupply& shared();

  // A chunk of at least min_bytes whose pages are already faulted in (writing it
  // takes no page fault); throws std::bad_alloc and changes nothing when memory
  // runs out.
  [[nodiscard]] Chunk take(std::size_t min_bytes);

  // Gives cached free chunks and the unused rest of the current region back to
  // the system.
  void trim() noexcept;

  // Applies to regions mapped from now on (for benchmarks comparing strategies).
  void set_fault_in(FaultIn fault_in) noexcept;

  // Applies to chunks given back from now on (a benchmark keeping all freed
  // memory warm raises it; trim() gives back what a lowered cap left cached).
  void set_max_cached_bytes(std::size_t max_cached_bytes) noexcept;

  // Bytes of free chunks kept for reuse (at most options.max_cached_bytes).
  [[nodiscard]] std::size_t cached_bytes() const noexcept;

  // Bytes of the chunks of 4 KiB and more that are taken and not yet given
  // back (smaller ones come from operator new, where heap accounting sees them).
  [[nodiscard]] std::size_t held_mapped_bytes() const noexcept;

  // How many regions were faulted in as 4 KiB pages and as huge pages (under
  // kHugePagesWhereCheap; benchmarks report it).
  [[nodiscard]] HugePagePolicy::Counts region_counts() const noexcept;

 private:
  friend class Chunk;
  static constexpr std::size_t kSizeClasses = 9;  // 4 KiB .. 1 MiB

  struct FreeChunk {  // written into the free chunk itself
    FreeChunk* next;
    std::size_t bytes;
  };

  void give_back(std::uint8_t* data, std::size_t size) noexcept;
  std::uint8_t* carve(std::size_t bytes);
  void fault_in_region(std::uint8_t* region);
  void release_region_rest() noexcept;
  void cache(std::uint8_t* data, std::size_t bytes) noexcept;
  static FreeChunk* sorted_by_address(FreeChunk* list) noexcept;

  mutable std::mutex mutex_;
  ChunkSupplyOptions options_;
  std::array<FreeChunk*, kSizeClasses> free_{};  // one list per power-of-two size
  std::size_t cached_bytes_ = 0;
  std::size_t held_mapped_bytes_ = 0;
  std::uint8_t* region_next_ = nullptr;  // first uncarved byte of the current region
  std::uint8_t* region_end_ = nullptr;
  std::uint8_t* last_region_ = nullptr;  // where the latest region was mapped
  HugePagePolicy huge_pages_;
};

inline void Chunk::reset() noexcept {
  if (data_ != nullptr) supply_->give_back(data_, size_);
  supply_ = nullptr;
  data_ = nullptr;
  size_ = 0;
}

}  // namespace kgroups::memory
