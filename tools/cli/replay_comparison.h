// SPDX-License-Identifier: Apache-2.0
//
// The demo's second act: what a rebalance costs in replayed records under an
// eager assignor (range) and under cooperative-sticky (SPEC.md, "Options").
// Three consumers read and commit a first batch, then poll a second batch
// without committing it; C crashes; A and B poll again. Every record they get
// that the group had already been given is a replay. Eagerly A and B restart
// every partition from the committed offsets; cooperatively they keep their
// positions on the partitions they keep, and only C's partitions replay.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string_view>

namespace kgroups::cli {

struct ReplayCount {
  std::size_t polled_after_leave = 0;   // records A and B polled after C left
  std::size_t replayed = 0;             // of those, records the group had been given before
  std::size_t replayed_from_moved = 0;  // of those, records of partitions that changed owner
};

// Runs the scenario with `assignor`, narrating it to `out`.
ReplayCount replay_after_leave(std::string_view assignor, std::ostream& out);

}  // namespace kgroups::cli
