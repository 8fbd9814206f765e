// SPDX-License-Identifier: Apache-2.0
//
// PhaseClock: sums the wall time, this process's CPU time and the broker
// process's CPU time over the timed windows of a phase, so untimed set-up work
// between windows is left out. The broker's CPU time is read two ways: utime +
// stime from /proc/<pid>/stat (clock ticks, 10 ms here), and the sum of its
// threads' run time from /proc/<pid>/task/*/schedstat (nanoseconds; misses
// threads that exit inside a window, which neither broker does).
// Not thread-safe: one thread starts and stops it.
#pragma once

namespace kgroups::bench {

// Seconds on a monotonic clock.
double monotonic_seconds();

// User + system CPU seconds of process `pid` (0: this process), or -1 if it
// cannot be read.
double process_cpu_seconds(int pid);

// Run time of process `pid`'s live threads in seconds from schedstat, or -1.
double process_run_seconds(int pid);

class PhaseClock {
 public:
  // broker_pid 0 means "not measured": broker_cpu_seconds() is then -1.
  explicit PhaseClock(int broker_pid) : broker_pid_(broker_pid) {}

  // Opens a window at monotonic time `now` (default: the current time).
  void start(double now = -1);
  // Closes the open window at `now` (default: the current time).
  void stop(double now = -1);

  [[nodiscard]] double wall_seconds() const { return wall_seconds_; }
  [[nodiscard]] double client_cpu_seconds() const { return client_cpu_seconds_; }
  [[nodiscard]] double broker_cpu_seconds() const {
    return broker_pid_ > 0 ? broker_cpu_seconds_ : -1;
  }
  [[nodiscard]] double broker_run_seconds() const {
    return broker_pid_ > 0 ? broker_run_seconds_ : -1;
  }

 private:
  int broker_pid_;
  double window_wall_start_ = 0;
  double window_client_cpu_start_ = 0;
  double window_broker_cpu_start_ = 0;
  double window_broker_run_start_ = 0;
  double wall_seconds_ = 0;
  double client_cpu_seconds_ = 0;
  double broker_cpu_seconds_ = 0;
  double broker_run_seconds_ = 0;
};

}  // namespace kgroups::bench
