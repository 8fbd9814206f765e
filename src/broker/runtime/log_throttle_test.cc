// SPDX-License-Identifier: Apache-2.0
#include "broker/runtime/log_throttle.h"

#include <gtest/gtest.h>

namespace kgroups::broker {
namespace {

using std::chrono::milliseconds;

TEST(LogThrottle, LogsTheFirstEventThenOneLinePerIntervalWithTheCountLeftOut) {
  LogThrottle throttle(milliseconds(1000));
  const LogThrottle::Clock::time_point start{};
  EXPECT_EQ(throttle.admit(start + milliseconds(5000)), 0u);
  EXPECT_EQ(throttle.admit(start + milliseconds(5001)), std::nullopt);
  EXPECT_EQ(throttle.admit(start + milliseconds(5500)), std::nullopt);
  EXPECT_EQ(throttle.admit(start + milliseconds(5999)), std::nullopt);
  EXPECT_EQ(throttle.admit(start + milliseconds(6000)), 3u);
  EXPECT_EQ(throttle.admit(start + milliseconds(9000)), 0u);
}

}  // namespace
}  // namespace kgroups::broker
