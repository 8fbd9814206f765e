// SPDX-License-Identifier: Apache-2.0
#include "broker/net/connection_counter.h"

#include <gtest/gtest.h>

namespace kgroups::broker {
namespace {

using Admission = ConnectionCounter::Admission;

TEST(ConnectionCounter, RefusesConnectionsBeyondThePerAddressCap) {
  ConnectionCounter counter(10, 2);
  EXPECT_EQ(counter.admit("10.0.0.1"), Admission::kAdmitted);
  EXPECT_EQ(counter.admit("10.0.0.1"), Admission::kAdmitted);
  EXPECT_EQ(counter.admit("10.0.0.1"), Admission::kTooManyFromAddress);
  EXPECT_EQ(counter.admit("10.0.0.2"), Admission::kAdmitted);
  EXPECT_EQ(counter.from("10.0.0.1"), 2);
  EXPECT_EQ(counter.total(), 3);
}

TEST(ConnectionCounter, RefusesConnectionsBeyondTheTotalCap) {
  ConnectionCounter counter(2, 5);
  EXPECT_EQ(counter.admit("10.0.0.1"), Admission::kAdmitted);
  EXPECT_EQ(counter.admit("10.0.0.2"), Admission::kAdmitted);
  EXPECT_EQ(counter.admit("10.0.0.3"), Admission::kTooManyConnections);
  EXPECT_EQ(counter.from("10.0.0.3"), 0);
  EXPECT_EQ(counter.total(), 2);
}

TEST(ConnectionCounter, ReleasingMakesRoomAgain) {
  ConnectionCounter counter(2, 1);
  ASSERT_EQ(counter.admit("10.0.0.1"), Admission::kAdmitted);
  ASSERT_EQ(counter.admit("10.0.0.1"), Admission::kTooManyFromAddress);
  counter.release("10.0.0.1");
  EXPECT_EQ(counter.total(), 0);
  EXPECT_EQ(counter.from("10.0.0.1"), 0);
  EXPECT_EQ(counter.admit("10.0.0.1"), Admission::kAdmitted);
}

TEST(ConnectionCounter, ReleasingAnUncountedAddressChangesNothing) {
  ConnectionCounter counter(2, 2);
  ASSERT_EQ(counter.admit("10.0.0.1"), Admission::kAdmitted);
  counter.release("10.0.0.9");
  EXPECT_EQ(counter.total(), 1);
}

}  // namespace
}  // namespace kgroups::broker
