// SPDX-License-Identifier: Apache-2.0
//
// The result line of kgroups_broker_bench.
#include "phase_result.h"

#include <cstdio>

#include "message_ledger.h"

namespace kgroups::bench {

void print_phase_result(const PhaseResult& result) {
  double megabytes = static_cast<double>(result.messages) * (kKeyBytes + kValueBytes) / 1e6;
  std::printf(
      "result phase=%s messages=%lld seconds=%.3f msgs_per_s=%.0f mb_per_s=%.2f "
      "client_cpu_s=%.3f broker_cpu_s=%.3f broker_run_s=%.4f",
      result.phase.c_str(), static_cast<long long>(result.messages), result.seconds,
      static_cast<double>(result.messages) / result.seconds, megabytes / result.seconds,
      result.client_cpu_seconds, result.broker_cpu_seconds, result.broker_run_seconds);
  if (result.join_ms >= 0) {
    std::printf(
        " join_ms=%.1f assigned_ms=%.1f all_joined_ms=%.1f after_join_msgs_per_s=%.0f "
        "after_join_mb_per_s=%.2f "
        "assignments=%d",
        result.join_ms, result.assigned_ms, result.all_joined_ms,
        static_cast<double>(result.messages) / result.after_join_seconds,
        megabytes / result.after_join_seconds, result.assignments);
  }
  if (result.memcpy_seconds >= 0) std::printf(" memcpy_s=%.4f", result.memcpy_seconds);
  std::printf("\n");
  std::fflush(stdout);
}

}  // namespace kgroups::bench
