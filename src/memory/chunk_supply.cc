// SPDX-License-Identifier: Apache-2.0
#include "memory/chunk_supply.h"

#include <sanitizer/asan_interface.h>
#include <sys/mman.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <functional>
#include <new>
#include <utility>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14; older kernels answer EINVAL
#endif

namespace kgroups::memory {
namespace {

constexpr std::size_t kPageBytes = 4096;

std::size_t size_class(std::size_t chunk_bytes) noexcept {
  return static_cast<std::size_t>(std::countr_zero(chunk_bytes) -
                                  std::countr_zero(ChunkSupply::kMinChunkBytes));
}

std::size_t round_up(std::size_t bytes, std::size_t multiple) noexcept {
  return (bytes + multiple - 1) / multiple * multiple;
}

// Writes one byte per page, so each page is faulted in now rather than later.
void touch_pages(std::uint8_t* data, std::size_t bytes) noexcept {
  for (std::size_t at = 0; at < bytes; at += kPageBytes) {
    *static_cast<volatile std::uint8_t*>(data + at) = 0;
  }
}

// Faults in [data, data + bytes) in one system call where the kernel can
// (MADV_POPULATE_WRITE), by touching each page where it cannot. False when the
// memory is not there to fault in.
bool populate(std::uint8_t* data, std::size_t bytes) noexcept {
  if (madvise(data, bytes, MADV_POPULATE_WRITE) == 0) return true;
  if (errno != EINVAL) return false;
  touch_pages(data, bytes);
  return true;
}

// Maps `bytes` at an `alignment` boundary (2 MiB lets the kernel back regions
// with huge pages): first at `hint`, where the kernel usually places it (just
// below the previous region), else by mapping alignment - 4 KiB more and
// unmapping what lies outside the aligned range. Unmapping costs a TLB flush,
// which is slow in a virtual machine, so the hint saves two per region.
std::uint8_t* map_aligned(std::size_t bytes, std::size_t alignment, std::uint8_t* hint) {
  constexpr int kProtection = PROT_READ | PROT_WRITE;
  constexpr int kFlags = MAP_PRIVATE | MAP_ANONYMOUS;
  if (hint != nullptr) {
    void* mapped = mmap(hint, bytes, kProtection, kFlags, -1, 0);
    if (mapped == MAP_FAILED) throw std::bad_alloc();
    if (reinterpret_cast<std::uintptr_t>(mapped) % alignment == 0) {
      return static_cast<std::uint8_t*>(mapped);
    }
    munmap(mapped, bytes);
  }
  const std::size_t extra = alignment - kPageBytes;
  void* mapped = mmap(nullptr, bytes + extra, kProtection, kFlags, -1, 0);
  if (mapped == MAP_FAILED) throw std::bad_alloc();
  auto* start = static_cast<std::uint8_t*>(mapped);
  const auto address = reinterpret_cast<std::uintptr_t>(start);
  auto* data = start + (round_up(address, alignment) - address);
  if (data != start) munmap(start, static_cast<std::size_t>(data - start));
  if (std::uint8_t* end = data + bytes; end != start + bytes + extra) {
    munmap(end, static_cast<std::size_t>(start + bytes + extra - end));
  }
  return data;
}

// Faults in [data, data + bytes), asking for huge pages first if `huge`; unmaps
// it and throws std::bad_alloc when memory runs out.
void populate_or_unmap(std::uint8_t* data, std::size_t bytes, bool huge) {
  if (huge) (void)madvise(data, bytes, MADV_HUGEPAGE);
  if (!populate(data, bytes)) {
    munmap(data, bytes);
    throw std::bad_alloc();
  }
}

}  // namespace

ChunkSupply& ChunkSupply::shared() {
  static auto* const kSupply = new ChunkSupply();  // never destroyed, on purpose
  return *kSupply;
}

ChunkSupply::~ChunkSupply() { trim(); }

Chunk ChunkSupply::take(std::size_t min_bytes) {
  if (min_bytes < kMinChunkBytes) {
    // Small blocks come from the heap; touching the first and last byte faults
    // in the (at most two) pages they span.
    const std::size_t bytes = min_bytes == 0 ? 1 : min_bytes;
    auto* data = static_cast<std::uint8_t*>(::operator new(bytes));
    *static_cast<volatile std::uint8_t*>(data) = 0;
    *static_cast<volatile std::uint8_t*>(data + bytes - 1) = 0;
    return {this, data, bytes};
  }
  if (min_bytes > kMaxChunkBytes) {
    if (min_bytes > SIZE_MAX - kRegionBytes) throw std::bad_alloc();
    const std::size_t bytes = round_up(min_bytes, kPageBytes);
    // A mapping of its own asks for huge pages only while regions have found them
    // cheap; it neither tries them nor is timed (its size is not a region's).
    FaultIn fault_in = FaultIn::kPopulate;
    bool huge = false;
    {
      const std::lock_guard lock(mutex_);
      fault_in = options_.fault_in;
      huge = fault_in == FaultIn::kPopulateHugePages ||
             (fault_in == FaultIn::kHugePagesWhereCheap && huge_pages_.huge_pages_on());
    }
    std::uint8_t* data = map_aligned(bytes, kPageBytes, nullptr);
    if (fault_in != FaultIn::kOnFirstTouch) populate_or_unmap(data, bytes, huge);
    // As for regions (fault_in_region): the first write to each page happens here, not in
    // the writer's copy, where a hypervisor shadows the page tables.
    if (fault_in == FaultIn::kHugePagesWhereCheap) touch_pages(data, bytes);
    const std::lock_guard lock(mutex_);
    held_mapped_bytes_ += bytes;
    return {this, data, bytes};
  }
  const std::size_t bytes = std::bit_ceil(min_bytes);
  const std::lock_guard lock(mutex_);
  FreeChunk*& free = free_[size_class(bytes)];
  if (free != nullptr) {
    auto* data = reinterpret_cast<std::uint8_t*>(free);
    free = free->next;
    ASAN_UNPOISON_MEMORY_REGION(data, bytes);
    cached_bytes_ -= bytes;
    held_mapped_bytes_ += bytes;
    return {this, data, bytes};
  }
  std::uint8_t* data = carve(bytes);
  held_mapped_bytes_ += bytes;
  return {this, data, bytes};
}

std::uint8_t* ChunkSupply::carve(std::size_t bytes) {
  if (static_cast<std::size_t>(region_end_ - region_next_) < bytes) {
    std::uint8_t* hint = reinterpret_cast<std::uintptr_t>(last_region_) > kRegionBytes
                             ? last_region_ - kRegionBytes
                             : nullptr;
    std::uint8_t* region = map_aligned(kRegionBytes, kRegionBytes, hint);
    fault_in_region(region);
    release_region_rest();
    last_region_ = region;
    region_next_ = region;
    region_end_ = region + kRegionBytes;
  }
  std::uint8_t* data = region_next_;
  region_next_ += bytes;
  return data;
}

// Faults in a new region as options_.fault_in says, timing its population for
// the huge page policy; unmaps it and throws std::bad_alloc when memory runs out.
void ChunkSupply::fault_in_region(std::uint8_t* region) {
  switch (options_.fault_in) {
    case FaultIn::kOnFirstTouch:
      return;
    case FaultIn::kPopulate:
    case FaultIn::kPopulateHugePages:
      populate_or_unmap(region, kRegionBytes, options_.fault_in == FaultIn::kPopulateHugePages);
      return;
    case FaultIn::kHugePagesWhereCheap:
      break;
  }
  // The time includes a write to every page: where a hypervisor maps guest pages
  // into its own tables only at their first access (shadow paging), populating
  // 4 KiB pages leaves a hidden fault per page for that first write, and only
  // timing the write too shows what a region really costs.
  const bool huge = huge_pages_.next_region_huge();
  const auto start = std::chrono::steady_clock::now();
  populate_or_unmap(region, kRegionBytes, huge);
  touch_pages(region, kRegionBytes);
  huge_pages_.record(huge, std::chrono::steady_clock::now() - start);
}

// The uncarved rest of the current region becomes free chunks (largest first,
// each a power of two), or goes back to the system once the cache is full.
void ChunkSupply::release_region_rest() noexcept {
  while (static_cast<std::size_t>(region_end_ - region_next_) >= kMinChunkBytes) {
    const auto rest = static_cast<std::size_t>(region_end_ - region_next_);
    const std::size_t bytes = std::min(std::bit_floor(rest), kMaxChunkBytes);
    std::uint8_t* data = region_next_;
    region_next_ += bytes;
    if (cached_bytes_ + bytes <= options_.max_cached_bytes) {
      cache(data, bytes);
    } else {
      munmap(data, bytes);
    }
  }
  region_next_ = nullptr;
  region_end_ = nullptr;
}

void ChunkSupply::give_back(std::uint8_t* data, std::size_t bytes) noexcept {
  if (bytes < kMinChunkBytes) {
    ::operator delete(data);
    return;
  }
  if (bytes > kMaxChunkBytes) {
    munmap(data, bytes);
    const std::lock_guard lock(mutex_);
    held_mapped_bytes_ -= bytes;
    return;
  }
  {
    const std::lock_guard lock(mutex_);
    held_mapped_bytes_ -= bytes;
    if (cached_bytes_ + bytes <= options_.max_cached_bytes) {
      cache(data, bytes);
      return;
    }
  }
  // The cache is full: the chunk's pages go back to the system. Its addresses
  // are never handed out again (the region around it stays mapped).
  munmap(data, bytes);
}

// Under AddressSanitizer a cached chunk's bytes after its list entry are poisoned until it is
// handed out again, so a write through a pointer into a given-back chunk is reported.
void ChunkSupply::cache(std::uint8_t* data, std::size_t bytes) noexcept {
  FreeChunk*& free = free_[size_class(bytes)];
  free = new (data) FreeChunk{free, bytes};
  ASAN_POISON_MEMORY_REGION(data + sizeof(FreeChunk), bytes - sizeof(FreeChunk));
  cached_bytes_ += bytes;
}

// Gathers every free chunk and the rest of the current region into one list by
// address and unmaps each run of adjacent ones at once: a whole region in one
// call when all of it is free (so its huge page is not split first).
void ChunkSupply::trim() noexcept {
  const std::lock_guard lock(mutex_);
  FreeChunk* all = nullptr;
  if (static_cast<std::size_t>(region_end_ - region_next_) >= sizeof(FreeChunk)) {
    all =
        new (region_next_) FreeChunk{nullptr, static_cast<std::size_t>(region_end_ - region_next_)};
  }
  region_next_ = nullptr;
  region_end_ = nullptr;
  for (FreeChunk*& free : free_) {
    while (free != nullptr) {
      FreeChunk* chunk = std::exchange(free, free->next);
      chunk->next = std::exchange(all, chunk);
    }
  }
  all = sorted_by_address(all);
  while (all != nullptr) {
    auto* start = reinterpret_cast<std::uint8_t*>(all);
    std::size_t run = 0;
    while (all != nullptr && reinterpret_cast<std::uint8_t*>(all) == start + run) {
      run += all->bytes;
      all = all->next;
    }
    ASAN_UNPOISON_MEMORY_REGION(start, run);  // the addresses may be mapped again by anyone
    munmap(start, run);
  }
  cached_bytes_ = 0;
}

// Merge sort of a singly linked list (no allocation; recursion depth log n).
ChunkSupply::FreeChunk* ChunkSupply::sorted_by_address(FreeChunk* list) noexcept {
  if (list == nullptr || list->next == nullptr) return list;
  FreeChunk* slow = list;
  for (FreeChunk* fast = list->next; fast != nullptr && fast->next != nullptr;
       fast = fast->next->next) {
    slow = slow->next;
  }
  FreeChunk* second = sorted_by_address(std::exchange(slow->next, nullptr));
  FreeChunk* first = sorted_by_address(list);
  FreeChunk head{nullptr, 0};
  FreeChunk* tail = &head;
  const std::less<> before;
  while (first != nullptr && second != nullptr) {
    FreeChunk*& smaller = before(first, second) ? first : second;
    tail->next = smaller;
    tail = smaller;
    smaller = smaller->next;
  }
  tail->next = first != nullptr ? first : second;
  return head.next;
}

void ChunkSupply::set_fault_in(FaultIn fault_in) noexcept {
  const std::lock_guard lock(mutex_);
  options_.fault_in = fault_in;
}

void ChunkSupply::set_max_cached_bytes(std::size_t max_cached_bytes) noexcept {
  const std::lock_guard lock(mutex_);
  options_.max_cached_bytes = max_cached_bytes;
}

std::size_t ChunkSupply::cached_bytes() const noexcept {
  const std::lock_guard lock(mutex_);
  return cached_bytes_;
}

std::size_t ChunkSupply::held_mapped_bytes() const noexcept {
  const std::lock_guard lock(mutex_);
  return held_mapped_bytes_;
}

HugePagePolicy::Counts ChunkSupply::region_counts() const noexcept {
  const std::lock_guard lock(mutex_);
  return huge_pages_.counts();
}

}  // namespace kgroups::memory
