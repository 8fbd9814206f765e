// SPDX-License-Identifier: Apache-2.0
#include "memcpy_baseline.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "phase_clock.h"

namespace kgroups::bench {

double memcpy_seconds(std::size_t bytes) {
  constexpr std::size_t kPiece = std::size_t{1} << 20;
  constexpr std::size_t kRing = std::size_t{64} << 20;
  const std::vector<char> source(kPiece, 'v');
  std::vector<char> ring(kRing, 1);  // written once: warm, as a log's recycled memory
  double best = -1;
  for (int pass = 0; pass < 3; ++pass) {
    const double started = monotonic_seconds();
    std::size_t at = 0;
    for (std::size_t copied = 0; copied < bytes; copied += kPiece) {
      const std::size_t piece = std::min(kPiece, bytes - copied);
      std::memcpy(ring.data() + at, source.data(), piece);
      at = (at + kPiece) % kRing;
    }
    // Keep the copies: the compiler may not drop writes to memory read afterwards.
    volatile char sink = ring[bytes % kRing];
    (void)sink;
    const double seconds = monotonic_seconds() - started;
    if (best < 0 || seconds < best) best = seconds;
  }
  return best;
}

}  // namespace kgroups::bench
