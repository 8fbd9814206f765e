// SPDX-License-Identifier: Apache-2.0
//
// PhaseResult: what one benchmark phase measured, and the machine-readable
// line bench/broker_bench.sh parses. Plain data.
#pragma once

#include <cstdint>
#include <string>

namespace kgroups::bench {

struct PhaseResult {
  std::string phase;
  std::int64_t messages = 0;       // messages validated in the phase
  double seconds = 0;              // timed windows: first request to last message
  double client_cpu_seconds = 0;   // this process, user + system, over `seconds`
  double broker_cpu_seconds = -1;  // the broker process over `seconds`; -1: not measured
  double broker_run_seconds = -1;  // the same from schedstat (ns resolution); -1: not measured
  double join_ms = -1;             // group phase: subscribe to first message; else -1
  double assigned_ms = -1;         // group phase: subscribe to the first assignment of any member
  double all_joined_ms =
      -1;  // group phase: subscribe to every member's first message; -1 if one got none
  double after_join_seconds = -1;  // group phase: `seconds` minus the join; else -1
  int assignments = -1;            // group phase: assignments handed to members; else -1
  double memcpy_seconds = -1;      // produce phase: memcpy of the messages' key and value bytes
};

// Prints "result phase=... msgs_per_s=... mb_per_s=..." on stdout, where
// MB/s counts key and value bytes (108 per message) in units of 10^6 bytes.
void print_phase_result(const PhaseResult& result);

}  // namespace kgroups::bench
