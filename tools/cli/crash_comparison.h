// SPDX-License-Identifier: Apache-2.0
//
// The demo's third act: the same crash under a consumer group and under a share
// group (SPEC.md, "Share groups"). Two readers A and B read a topic of 2
// partitions; A crashes in the middle of a batch, having finished some of its
// records and not the rest. In the consumer group, B gets A's partition in the
// rebalance and replays it from the last commit, also the records A had already
// processed after that commit. In the share group, the records A held (acquired,
// not acknowledged) are released and B acquires them again with delivery count 2;
// what A accepted is never delivered again.
#pragma once

#include <cstddef>
#include <iosfwd>

namespace kgroups::cli {

struct CrashReplay {
  std::size_t consumer_replayed = 0;            // records B polled that A had polled before
  std::size_t consumer_replayed_processed = 0;  // of those, records A had processed
  std::size_t share_held_at_crash = 0;          // records A held when it crashed
  std::size_t share_redelivered = 0;            // records B got with delivery count 2 or more
  std::size_t share_redelivered_processed = 0;  // of those, records A had accepted
};

// Each half narrates its scenario to `out` and fills in its counts.
void crash_in_consumer_group(std::ostream& out, CrashReplay& replay);
void crash_in_share_group(std::ostream& out, CrashReplay& replay);

}  // namespace kgroups::cli
