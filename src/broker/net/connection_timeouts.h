// SPDX-License-Identifier: Apache-2.0
//
// ConnectionTimeouts: the three clocks that close a connection which holds a socket and
// memory without using them (limit_table.cc):
// - request (--request-timeout-ms) runs while the reader waits for the rest of a request
//   frame whose first bytes have arrived, or for memory to receive it;
// - send (--send-timeout-ms) runs while responses are queued and the socket has taken none of
//   their bytes since it started or since the last write progress;
// - idle (--connections-max-idle-ms) runs while nothing is in progress: no handler running
//   or parked (a long-polling Fetch, a JoinGroup waiting for its rebalance), no partial frame,
//   no unsent response; it starts from the last activity (bytes received or written, a
//   handler finishing).
// It only keeps times: Connection reports what happens, and its watchdog asks expired() and
// sleeps until next_deadline().
// Not thread-safe: one connection's, on the broker's network thread.
#pragma once

#include <chrono>

namespace kgroups::broker {

class ConnectionTimeouts {
 public:
  using Clock = std::chrono::steady_clock;
  using TimePoint = Clock::time_point;
  using Milliseconds = std::chrono::milliseconds;

  struct Limits {
    Milliseconds request;  // --request-timeout-ms
    Milliseconds send;     // --send-timeout-ms
    Milliseconds idle;     // --connections-max-idle-ms
  };

  enum class Expiry { kNone, kRequest, kSend, kIdle };

  // A new connection: idle from `now`.
  ConnectionTimeouts(Limits limits, TimePoint now);

  [[nodiscard]] const Limits& limits() const { return limits_; }

  // The reader waits for more of a frame it has part of: starts the request clock unless it
  // runs.
  void waiting_for_frame(TimePoint now);
  // The reader has the frame whole, or pauses reading (unsent responses): stops the clock.
  void not_waiting_for_frame();
  void received(TimePoint now);
  void handler_started();
  void handler_finished(TimePoint now);
  // A response was queued: starts the send clock unless it runs.
  void response_queued(TimePoint now);
  // The socket took bytes of the queued responses; `drained` when none are left.
  void write_progress(TimePoint now, bool drained);

  // The clock that has run out at `now` (request first, then send, then idle), or kNone.
  [[nodiscard]] Expiry expired(TimePoint now) const;
  // When the first running clock runs out (TimePoint::max() when none runs).
  [[nodiscard]] TimePoint next_deadline() const;
  // When the running request clock started (meaningful while one runs).
  [[nodiscard]] TimePoint frame_waiting_since() const { return frame_waiting_since_; }
  // When the queued responses last made progress (meaningful while some are queued).
  [[nodiscard]] TimePoint send_progress_at() const { return send_progress_at_; }

 private:
  [[nodiscard]] bool idle() const { return !handling_ && !waiting_for_frame_ && !unsent_; }

  Limits limits_;
  bool waiting_for_frame_ = false;  // the request clock runs
  TimePoint frame_waiting_since_;   // when it started
  bool handling_ = false;           // a handler runs or is parked
  bool unsent_ = false;             // responses are queued: the send clock runs
  TimePoint send_progress_at_;      // when it started, or the last write progress
  TimePoint last_activity_;         // bytes received or written, or a handler finished
};

// `time` + `duration`, or TimePoint::max() when that does not fit.
ConnectionTimeouts::TimePoint add_saturating(ConnectionTimeouts::TimePoint time,
                                             ConnectionTimeouts::Milliseconds duration);

}  // namespace kgroups::broker
