// SPDX-License-Identifier: Apache-2.0
#include "broker/net/connection_timeouts.h"

#include <algorithm>

namespace kgroups::broker {

ConnectionTimeouts::TimePoint add_saturating(ConnectionTimeouts::TimePoint time,
                                             ConnectionTimeouts::Milliseconds duration) {
  using Milliseconds = ConnectionTimeouts::Milliseconds;
  const auto room =
      std::chrono::duration_cast<Milliseconds>(ConnectionTimeouts::TimePoint::max() - time);
  if (duration >= room) return ConnectionTimeouts::TimePoint::max();
  return time + duration;
}

ConnectionTimeouts::ConnectionTimeouts(Limits limits, TimePoint now)
    : limits_(limits), last_activity_(now) {}

void ConnectionTimeouts::waiting_for_frame(TimePoint now) {
  if (waiting_for_frame_) return;
  waiting_for_frame_ = true;
  frame_waiting_since_ = now;
}

void ConnectionTimeouts::not_waiting_for_frame() { waiting_for_frame_ = false; }

void ConnectionTimeouts::received(TimePoint now) { last_activity_ = std::max(last_activity_, now); }

void ConnectionTimeouts::handler_started() { handling_ = true; }

void ConnectionTimeouts::handler_finished(TimePoint now) {
  handling_ = false;
  last_activity_ = std::max(last_activity_, now);
}

void ConnectionTimeouts::response_queued(TimePoint now) {
  if (unsent_) return;
  unsent_ = true;
  send_progress_at_ = now;
}

void ConnectionTimeouts::write_progress(TimePoint now, bool drained) {
  send_progress_at_ = now;
  last_activity_ = std::max(last_activity_, now);
  if (drained) unsent_ = false;
}

ConnectionTimeouts::Expiry ConnectionTimeouts::expired(TimePoint now) const {
  if (waiting_for_frame_ && now >= add_saturating(frame_waiting_since_, limits_.request)) {
    return Expiry::kRequest;
  }
  if (unsent_ && now >= add_saturating(send_progress_at_, limits_.send)) return Expiry::kSend;
  if (idle() && now >= add_saturating(last_activity_, limits_.idle)) return Expiry::kIdle;
  return Expiry::kNone;
}

ConnectionTimeouts::TimePoint ConnectionTimeouts::next_deadline() const {
  TimePoint deadline = TimePoint::max();
  if (waiting_for_frame_) {
    deadline = std::min(deadline, add_saturating(frame_waiting_since_, limits_.request));
  }
  if (unsent_) deadline = std::min(deadline, add_saturating(send_progress_at_, limits_.send));
  if (idle()) deadline = std::min(deadline, add_saturating(last_activity_, limits_.idle));
  return deadline;
}

}  // namespace kgroups::broker
