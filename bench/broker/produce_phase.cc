// SPDX-License-Identifier: Apache-2.0
//
// The produce phase: every message in one go, acks=all, timed from the first
// send to the last delivery report; then, untimed, a memcpy of the same key and
// value bytes as the baseline of the broker's CPU per byte. Single-threaded.
#include "memcpy_baseline.h"
#include "message_ledger.h"
#include "message_producer.h"
#include "phase_clock.h"
#include "phases.h"

namespace kgroups::bench {

PhaseResult run_produce(const BenchOptions& options) {
  MessageProducer producer(options);
  PhaseClock clock(options.broker_pid);
  clock.start();
  producer.produce(0, options.messages, monotonic_seconds() + options.timeout_s);
  clock.stop();
  return PhaseResult{.phase = "produce",
                     .messages = options.messages,
                     .seconds = clock.wall_seconds(),
                     .client_cpu_seconds = clock.client_cpu_seconds(),
                     .broker_cpu_seconds = clock.broker_cpu_seconds(),
                     .broker_run_seconds = clock.broker_run_seconds(),
                     .memcpy_seconds = memcpy_seconds(static_cast<std::size_t>(options.messages) *
                                                      (kKeyBytes + kValueBytes))};
}

}  // namespace kgroups::bench
