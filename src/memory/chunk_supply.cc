// SPDX-License-Identifier: Apache-2.0
#include "memory/chunk_supply.h"

#include <sys/mman.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdint>
#include <new>

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

// Maps `bytes` and faults them in as `fault_in` says; throws std::bad_alloc
// (and leaves nothing mapped) when memory runs out.
std::uint8_t* map_fault_in(std::size_t bytes, std::size_t alignment, std::uint8_t* hint,
                           FaultIn fault_in) {
  std::uint8_t* data = map_aligned(bytes, alignment, hint);
  if (fault_in == FaultIn::kPopulateHugePages) (void)madvise(data, bytes, MADV_HUGEPAGE);
  if (fault_in != FaultIn::kOnFirstTouch && !populate(data, bytes)) {
    munmap(data, bytes);
    throw std::bad_alloc();
  }
  return data;
}

}  // namespace

ChunkSupply& ChunkSupply::shared() {
  static ChunkSupply* const supply = new ChunkSupply();  // never destroyed, on purpose
  return *supply;
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
    const FaultIn fault_in = [this] {
      const std::lock_guard lock(mutex_);
      return options_.fault_in;
    }();
    std::uint8_t* data = map_fault_in(bytes, kPageBytes, nullptr, fault_in);
    return {this, data, bytes};
  }
  const std::size_t bytes = std::bit_ceil(min_bytes);
  const std::lock_guard lock(mutex_);
  FreeChunk*& free = free_[size_class(bytes)];
  if (free != nullptr) {
    auto* data = reinterpret_cast<std::uint8_t*>(free);
    free = free->next;
    cached_bytes_ -= bytes;
    return {this, data, bytes};
  }
  return {this, carve(bytes), bytes};
}

std::uint8_t* ChunkSupply::carve(std::size_t bytes) {
  if (static_cast<std::size_t>(region_end_ - region_next_) < bytes) {
    std::uint8_t* hint = reinterpret_cast<std::uintptr_t>(last_region_) > kRegionBytes
                             ? last_region_ - kRegionBytes
                             : nullptr;
    std::uint8_t* region = map_fault_in(kRegionBytes, kRegionBytes, hint, options_.fault_in);
    release_region_rest();
    last_region_ = region;
    region_next_ = region;
    region_end_ = region + kRegionBytes;
  }
  std::uint8_t* data = region_next_;
  region_next_ += bytes;
  return data;
}

// The uncarved rest of the current region becomes free chunks (largest first,
// each a power of two), or goes back to the system once the cache is full.
void ChunkSupply::release_region_rest() noexcept {
  while (static_cast<std::size_t>(region_end_ - region_next_) >= kMinChunkBytes) {
    const std::size_t rest = static_cast<std::size_t>(region_end_ - region_next_);
    const std::size_t bytes = std::min(std::bit_floor(rest), kMaxChunkBytes);
    std::uint8_t* data = region_next_;
    region_next_ += bytes;
    if (cached_bytes_ + bytes <= options_.max_cached_bytes) {
      auto* chunk = new (data) FreeChunk{free_[size_class(bytes)]};
      free_[size_class(bytes)] = chunk;
      cached_bytes_ += bytes;
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
    return;
  }
  {
    const std::lock_guard lock(mutex_);
    if (cached_bytes_ + bytes <= options_.max_cached_bytes) {
      auto* chunk = new (data) FreeChunk{free_[size_class(bytes)]};
      free_[size_class(bytes)] = chunk;
      cached_bytes_ += bytes;
      return;
    }
  }
  // The cache is full: the chunk's pages go back to the system. Its addresses
  // are never handed out again (the region around it stays mapped).
  munmap(data, bytes);
}

void ChunkSupply::trim() noexcept {
  const std::lock_guard lock(mutex_);
  if (region_next_ != nullptr)
    munmap(region_next_, static_cast<std::size_t>(region_end_ - region_next_));
  region_next_ = nullptr;
  region_end_ = nullptr;
  for (std::size_t size_class = 0; size_class < kSizeClasses; ++size_class) {
    const std::size_t bytes = kMinChunkBytes << size_class;
    while (free_[size_class] != nullptr) {
      FreeChunk* chunk = free_[size_class];
      free_[size_class] = chunk->next;
      munmap(chunk, bytes);
    }
  }
  cached_bytes_ = 0;
}

void ChunkSupply::set_fault_in(FaultIn fault_in) noexcept {
  const std::lock_guard lock(mutex_);
  options_.fault_in = fault_in;
}

std::size_t ChunkSupply::cached_bytes() const noexcept {
  const std::lock_guard lock(mutex_);
  return cached_bytes_;
}

}  // namespace kgroups::memory
