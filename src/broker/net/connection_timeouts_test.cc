// SPDX-License-Identifier: Apache-2.0
#include "broker/net/connection_timeouts.h"

#include <gtest/gtest.h>

#include <limits>

namespace kgroups::broker {
namespace {

using Expiry = ConnectionTimeouts::Expiry;
using TimePoint = ConnectionTimeouts::TimePoint;
using std::chrono::milliseconds;

constexpr ConnectionTimeouts::Limits kLimits{
    .request = milliseconds(100), .send = milliseconds(200), .idle = milliseconds(1000)};

constexpr TimePoint kStart = TimePoint{} + std::chrono::hours(1);

TimePoint at(int ms) { return kStart + milliseconds(ms); }

TEST(ConnectionTimeouts, ANewConnectionIsIdleFromTheStart) {
  ConnectionTimeouts timeouts(kLimits, kStart);
  EXPECT_EQ(timeouts.next_deadline(), at(1000));
  EXPECT_EQ(timeouts.expired(at(999)), Expiry::kNone);
  EXPECT_EQ(timeouts.expired(at(1000)), Expiry::kIdle);
}

TEST(ConnectionTimeouts, ARunningOrParkedHandlerIsNotIdle) {
  ConnectionTimeouts timeouts(kLimits, kStart);
  timeouts.handler_started();
  EXPECT_EQ(timeouts.expired(at(60000)), Expiry::kNone);
  EXPECT_EQ(timeouts.next_deadline(), TimePoint::max());
  timeouts.handler_finished(at(60000));
  EXPECT_EQ(timeouts.expired(at(60999)), Expiry::kNone);
  EXPECT_EQ(timeouts.expired(at(61000)), Expiry::kIdle);
}

TEST(ConnectionTimeouts, AStartedFrameMustBeWholeWithinTheRequestTimeout) {
  ConnectionTimeouts timeouts(kLimits, kStart);
  timeouts.received(at(10));
  timeouts.waiting_for_frame(at(10));
  timeouts.received(at(50));
  timeouts.waiting_for_frame(at(50));  // the clock keeps running from the first byte
  EXPECT_EQ(timeouts.next_deadline(), at(110));
  EXPECT_EQ(timeouts.expired(at(109)), Expiry::kNone);
  EXPECT_EQ(timeouts.expired(at(110)), Expiry::kRequest);
  timeouts.not_waiting_for_frame();
  EXPECT_EQ(timeouts.expired(at(110)), Expiry::kNone);
}

TEST(ConnectionTimeouts, QueuedResponsesMustMakeProgressWithinTheSendTimeout) {
  ConnectionTimeouts timeouts(kLimits, kStart);
  timeouts.response_queued(at(0));
  timeouts.response_queued(at(150));  // the clock keeps running
  EXPECT_EQ(timeouts.expired(at(199)), Expiry::kNone);
  timeouts.write_progress(at(199), false);
  EXPECT_EQ(timeouts.expired(at(398)), Expiry::kNone);
  EXPECT_EQ(timeouts.expired(at(399)), Expiry::kSend);
  timeouts.write_progress(at(399), true);
  EXPECT_EQ(timeouts.expired(at(1398)), Expiry::kNone);
  EXPECT_EQ(timeouts.expired(at(1399)), Expiry::kIdle);  // idle from the last write
}

TEST(ConnectionTimeouts, HugeLimitsNeverOverflow) {
  const ConnectionTimeouts::Limits forever{
      .request = milliseconds(std::numeric_limits<std::int64_t>::max()),
      .send = milliseconds(std::numeric_limits<std::int64_t>::max()),
      .idle = milliseconds(std::numeric_limits<std::int64_t>::max())};
  ConnectionTimeouts timeouts(forever, kStart);
  EXPECT_EQ(timeouts.next_deadline(), TimePoint::max());
  EXPECT_EQ(timeouts.expired(at(1 << 30)), Expiry::kNone);
}

}  // namespace
}  // namespace kgroups::broker
