// SPDX-License-Identifier: Apache-2.0
#include "broker/faults/fault_injector.h"

#include <gtest/gtest.h>

#include <string>

namespace kgroups::broker {
namespace {

using protocol::ApiKey;
using protocol::ErrorCode;

Fault error_fault(ApiKey api, ErrorCode error, std::int64_t count = 1) {
  Fault fault;
  fault.api = api;
  fault.action = FaultAction::kError;
  fault.error = error;
  fault.count = count;
  return fault;
}

Fault coordinator_fault(CoordinatorFault kind, std::int64_t count = 1) {
  Fault fault;
  fault.coordinator = kind;
  fault.action = FaultAction::kError;
  fault.count = count;
  return fault;
}

TEST(FaultInjector, ArmsWithIncreasingIdsAndRemainingEqualToCount) {
  FaultInjector faults;
  const Fault* first =
      faults.arm(error_fault(ApiKey::kProduce, ErrorCode::kNotLeaderForPartition, 3));
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->id, 1u);
  EXPECT_EQ(first->remaining, 3);
  const Fault* second = faults.arm(error_fault(ApiKey::kFetch, ErrorCode::kNotLeaderForPartition));
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(second->id, 2u);
  EXPECT_EQ(faults.armed().size(), 2u);
}

TEST(FaultInjector, AnErrorFaultAnswersCountRequestsThenDisappears) {
  FaultInjector faults;
  faults.arm(error_fault(ApiKey::kJoinGroup, ErrorCode::kCoordinatorNotAvailable, 2));
  EXPECT_EQ(faults.take_error(ApiKey::kHeartbeat, "g"), ErrorCode::kNone);  // other API
  EXPECT_EQ(faults.take_error(ApiKey::kJoinGroup, "g"), ErrorCode::kCoordinatorNotAvailable);
  ASSERT_EQ(faults.armed().size(), 1u);
  EXPECT_EQ(faults.armed().front().remaining, 1);
  EXPECT_EQ(faults.take_error(ApiKey::kJoinGroup, "g"), ErrorCode::kCoordinatorNotAvailable);
  EXPECT_TRUE(faults.empty());
  EXPECT_EQ(faults.take_error(ApiKey::kJoinGroup, "g"), ErrorCode::kNone);
  EXPECT_EQ(faults.injected(ApiKey::kJoinGroup), 2u);
  EXPECT_EQ(faults.injected(ApiKey::kHeartbeat), 0u);
}

TEST(FaultInjector, CountMinusOneLastsUntilDeleted) {
  FaultInjector faults;
  const std::uint64_t id =
      faults.arm(error_fault(ApiKey::kHeartbeat, ErrorCode::kRebalanceInProgress, -1))->id;
  for (int i = 0; i < 50; ++i) {
    EXPECT_EQ(faults.take_error(ApiKey::kHeartbeat, "g"), ErrorCode::kRebalanceInProgress);
  }
  EXPECT_EQ(faults.armed().front().remaining, Fault::kUntilDeleted);
  EXPECT_TRUE(faults.disarm(id));
  EXPECT_FALSE(faults.disarm(id));
  EXPECT_EQ(faults.take_error(ApiKey::kHeartbeat, "g"), ErrorCode::kNone);
}

TEST(FaultInjector, GroupFilterMatchesOnlyThatGroup) {
  FaultInjector faults;
  Fault fault = error_fault(ApiKey::kSyncGroup, ErrorCode::kRebalanceInProgress);
  fault.group = "billing";
  faults.arm(fault);
  EXPECT_EQ(faults.take_error(ApiKey::kSyncGroup, "orders"), ErrorCode::kNone);
  EXPECT_EQ(faults.armed().size(), 1u);  // a request it does not match uses nothing
  EXPECT_EQ(faults.take_error(ApiKey::kSyncGroup, "billing"), ErrorCode::kRebalanceInProgress);
  EXPECT_TRUE(faults.empty());
}

TEST(FaultInjector, TheFirstArmedMatchingFaultWins) {
  FaultInjector faults;
  faults.arm(error_fault(ApiKey::kHeartbeat, ErrorCode::kRebalanceInProgress));
  faults.arm(error_fault(ApiKey::kHeartbeat, ErrorCode::kUnknownMemberId));
  EXPECT_EQ(faults.take_error(ApiKey::kHeartbeat, "g"), ErrorCode::kRebalanceInProgress);
  EXPECT_EQ(faults.take_error(ApiKey::kHeartbeat, "g"), ErrorCode::kUnknownMemberId);
  EXPECT_TRUE(faults.empty());
}

TEST(FaultInjector, UnavailableCoordinatorAppliesToFindCoordinatorAndGroupApis) {
  FaultInjector faults;
  faults.arm(coordinator_fault(CoordinatorFault::kUnavailable, 3));
  EXPECT_EQ(faults.take_error(ApiKey::kProduce, ""), ErrorCode::kNone);
  EXPECT_EQ(faults.take_error(ApiKey::kFindCoordinator, "g"), ErrorCode::kCoordinatorNotAvailable);
  EXPECT_EQ(faults.take_error(ApiKey::kJoinGroup, "g"), ErrorCode::kCoordinatorNotAvailable);
  EXPECT_EQ(faults.take_coordinator_error(ApiKey::kOffsetCommit, "g"),
            ErrorCode::kCoordinatorNotAvailable);
  EXPECT_TRUE(faults.empty());
}

TEST(FaultInjector, MovedCoordinatorAnswersNotCoordinatorButLeavesFindCoordinatorAlone) {
  FaultInjector faults;
  Fault fault = coordinator_fault(CoordinatorFault::kMoved, 1);
  fault.group = "g1";
  faults.arm(fault);
  EXPECT_EQ(faults.take_error(ApiKey::kFindCoordinator, "g1"), ErrorCode::kNone);
  EXPECT_EQ(faults.take_error(ApiKey::kHeartbeat, "g2"), ErrorCode::kNone);
  EXPECT_EQ(faults.take_error(ApiKey::kHeartbeat, "g1"), ErrorCode::kNotCoordinator);
  EXPECT_TRUE(faults.empty());
}

TEST(FaultInjector, CoordinatorOnlyQuestionSkipsTheApisOwnErrorFaults) {
  FaultInjector faults;
  faults.arm(error_fault(ApiKey::kOffsetCommit, ErrorCode::kRebalanceInProgress));
  EXPECT_EQ(faults.take_coordinator_error(ApiKey::kOffsetCommit, "g"), ErrorCode::kNone);
  EXPECT_EQ(faults.armed().size(), 1u);
}

TEST(FaultInjector, PartitionFaultsMatchTopicAndPartitionAndUseOneCountPerRequest) {
  FaultInjector faults;
  Fault fault = error_fault(ApiKey::kProduce, ErrorCode::kNotLeaderForPartition, 2);
  fault.topic = "orders";
  fault.partition = 1;
  faults.arm(fault);

  PartitionFaults request = faults.partition_faults(ApiKey::kProduce);
  ASSERT_TRUE(request.active());
  EXPECT_EQ(request.error_for("orders", 0), ErrorCode::kNone);
  EXPECT_EQ(request.error_for("orders", 1), ErrorCode::kNotLeaderForPartition);
  EXPECT_EQ(request.error_for("payments", 1), ErrorCode::kNone);
  EXPECT_EQ(request.error_for("orders", 1), ErrorCode::kNotLeaderForPartition);  // same request
  request.settle();
  ASSERT_EQ(faults.armed().size(), 1u);
  EXPECT_EQ(faults.armed().front().remaining, 1);

  PartitionFaults unmatched = faults.partition_faults(ApiKey::kProduce);
  EXPECT_EQ(unmatched.error_for("orders", 0), ErrorCode::kNone);
  unmatched.settle();
  EXPECT_EQ(faults.armed().front().remaining, 1);  // matched nothing: used nothing

  PartitionFaults last = faults.partition_faults(ApiKey::kProduce);
  EXPECT_EQ(last.error_for("orders", 1), ErrorCode::kNotLeaderForPartition);
  last.settle();
  EXPECT_TRUE(faults.empty());
  EXPECT_EQ(faults.injected(ApiKey::kProduce), 2u);
}

TEST(FaultInjector, PartitionFaultsAreInactiveWithoutAFaultOfThatApi) {
  FaultInjector faults;
  EXPECT_FALSE(faults.partition_faults(ApiKey::kFetch).active());
  faults.arm(error_fault(ApiKey::kProduce, ErrorCode::kNotLeaderForPartition));
  EXPECT_FALSE(faults.partition_faults(ApiKey::kFetch).active());
  PartitionFaults inactive;
  EXPECT_EQ(inactive.error_for("orders", 0), ErrorCode::kNone);
  inactive.settle();
  EXPECT_EQ(faults.armed().size(), 1u);
}

TEST(FaultInjector, PartitionFaultsOfAGroupApiHonourTheGroupFilter) {
  FaultInjector faults;
  Fault fault = error_fault(ApiKey::kOffsetCommit, ErrorCode::kUnknownTopicOrPartition);
  fault.group = "g1";
  faults.arm(fault);
  PartitionFaults other = faults.partition_faults(ApiKey::kOffsetCommit, "g2");
  EXPECT_EQ(other.error_for("orders", 0), ErrorCode::kNone);
  PartitionFaults same = faults.partition_faults(ApiKey::kOffsetCommit, "g1");
  EXPECT_EQ(same.error_for("orders", 0), ErrorCode::kUnknownTopicOrPartition);
}

TEST(FaultInjector, AFaultDisarmedDuringARequestIsNotUsedAtSettle) {
  FaultInjector faults;
  const std::uint64_t id =
      faults.arm(error_fault(ApiKey::kFetch, ErrorCode::kNotLeaderForPartition, 5))->id;
  faults.arm(error_fault(ApiKey::kProduce, ErrorCode::kNotLeaderForPartition, 5));
  PartitionFaults request = faults.partition_faults(ApiKey::kFetch);
  EXPECT_EQ(request.error_for("orders", 0), ErrorCode::kNotLeaderForPartition);
  EXPECT_TRUE(faults.disarm(id));
  request.settle();
  ASSERT_EQ(faults.armed().size(), 1u);
  EXPECT_EQ(faults.armed().front().remaining, 5);  // the Produce fault is untouched
}

TEST(FaultInjector, ConnectionFaultsAreLatencyOrCloseOnlyAndCounted) {
  FaultInjector faults;
  faults.arm(error_fault(ApiKey::kFetch, ErrorCode::kNotLeaderForPartition));
  EXPECT_FALSE(faults.take_connection_fault(ApiKey::kFetch));  // an error fault is not one
  Fault latency;
  latency.api = ApiKey::kFetch;
  latency.action = FaultAction::kLatency;
  latency.latency_ms = 300;
  latency.count = 1;
  faults.arm(latency);
  Fault close;
  close.api = ApiKey::kMetadata;
  close.action = FaultAction::kClose;
  close.count = 1;
  faults.arm(close);

  const auto delayed = faults.take_connection_fault(ApiKey::kFetch);
  ASSERT_TRUE(delayed);
  EXPECT_EQ(delayed->action, FaultAction::kLatency);
  EXPECT_EQ(delayed->latency_ms, 300);
  EXPECT_FALSE(faults.take_connection_fault(ApiKey::kFetch));
  const auto closed = faults.take_connection_fault(ApiKey::kMetadata);
  ASSERT_TRUE(closed);
  EXPECT_EQ(closed->action, FaultAction::kClose);
  EXPECT_EQ(faults.armed().size(), 1u);  // the Fetch error fault is left
  EXPECT_EQ(faults.injected(ApiKey::kMetadata), 1u);
}

TEST(FaultInjector, RefusesMoreThanMaxFaultsAndKeepsThoseArmed) {
  FaultInjector faults;
  for (std::size_t i = 0; i < FaultInjector::kMaxFaults; ++i) {
    ASSERT_NE(faults.arm(error_fault(ApiKey::kProduce, ErrorCode::kNotLeaderForPartition)),
              nullptr);
  }
  EXPECT_EQ(faults.arm(error_fault(ApiKey::kProduce, ErrorCode::kNotLeaderForPartition)), nullptr);
  EXPECT_EQ(faults.armed().size(), FaultInjector::kMaxFaults);
  faults.disarm_all();
  EXPECT_TRUE(faults.empty());
  EXPECT_NE(faults.arm(error_fault(ApiKey::kProduce, ErrorCode::kNotLeaderForPartition)), nullptr);
}

}  // namespace
}  // namespace kgroups::broker
