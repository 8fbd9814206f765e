// SPDX-License-Identifier: Apache-2.0
#include "broker/security/auth_failure_backoff.h"

#include <gtest/gtest.h>

#include <string>

namespace kgroups::broker {
namespace {

using std::chrono::milliseconds;
using Clock = AuthFailureBackoff::Clock;

TEST(AuthFailureBackoff, WaitsTheBaseDelayUpToTheRateThenDoublesUpToTheCap) {
  AuthFailureBackoff backoff(milliseconds(100), 3);
  const Clock::time_point start{};
  for (int i = 0; i < 3; ++i) EXPECT_EQ(backoff.failed("10.0.0.1", start), milliseconds(100));
  EXPECT_EQ(backoff.failed("10.0.0.1", start), milliseconds(200));
  EXPECT_EQ(backoff.failed("10.0.0.1", start), milliseconds(400));
  for (int i = 0; i < 20; ++i) (void)backoff.failed("10.0.0.1", start);
  EXPECT_EQ(backoff.failed("10.0.0.1", start), AuthFailureBackoff::kMaxDelay);
  // Another address is not slowed; a new second starts over.
  EXPECT_EQ(backoff.failed("10.0.0.2", start), milliseconds(100));
  EXPECT_EQ(backoff.failed("10.0.0.1", start + std::chrono::seconds(1)), milliseconds(100));
}

TEST(AuthFailureBackoff, RemembersABoundedNumberOfAddresses) {
  AuthFailureBackoff backoff(milliseconds(100), 3);
  Clock::time_point now{};
  for (std::size_t i = 0; i < AuthFailureBackoff::kMaxAddresses + 100; ++i) {
    now += milliseconds(1);
    (void)backoff.failed("10.1." + std::to_string(i), now);
  }
  EXPECT_LE(backoff.addresses(), AuthFailureBackoff::kMaxAddresses);
}

}  // namespace
}  // namespace kgroups::broker
