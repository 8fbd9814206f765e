// SPDX-License-Identifier: Apache-2.0
//
// PlaygroundTiming: how often the playground's simulated clients act. The defaults are a
// learner's pace; tests shorten them so a rebalance takes milliseconds.
#pragma once

#include <chrono>
#include <cstdint>

namespace kgroups::broker::playground {

struct PlaygroundTiming {
  // Consumers read (at most records_per_tick per partition), heartbeat and commit on this
  // tick.
  std::chrono::milliseconds consumer_tick{200};
  std::int64_t records_per_tick = 50;
  std::chrono::milliseconds heartbeat_interval{1000};
  // Auto-commit of the consumed positions (enable.auto.commit's auto.commit.interval.ms).
  std::chrono::milliseconds auto_commit_interval{2000};
  // After a retriable JoinGroup error, wait this long before joining again.
  std::chrono::milliseconds retry_backoff{1000};
  // Producers append one batch per partition per tick.
  std::chrono::milliseconds producer_tick{100};
};

}  // namespace kgroups::broker::playground
