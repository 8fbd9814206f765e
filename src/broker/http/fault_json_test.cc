// SPDX-License-Identifier: Apache-2.0
#include "broker/http/fault_json.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace kgroups::broker {
namespace {

using protocol::ApiKey;
using protocol::ErrorCode;

// The message fault_from_json refuses `body` with, or "" if it accepts it.
std::string refusal(std::string_view body) {
  try {
    (void)fault_from_json(body);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(FaultJson, ParsesAnErrorFaultByNamesWithFilters) {
  const Fault fault = fault_from_json(
      R"({"api": "Produce", "error": "NOT_LEADER_OR_FOLLOWER", "count": 2, "topic": "orders",
          "partition": 0})");
  EXPECT_EQ(fault.api, ApiKey::kProduce);
  EXPECT_EQ(fault.action, FaultAction::kError);
  EXPECT_EQ(fault.error, ErrorCode::kNotLeaderForPartition);
  EXPECT_EQ(fault.count, 2);
  EXPECT_EQ(fault.remaining, 2);
  EXPECT_EQ(fault.topic, "orders");
  EXPECT_EQ(fault.partition, 0);
  EXPECT_FALSE(fault.group);
}

TEST(FaultJson, ParsesKeyAndErrorNumbersAndDefaultsCountToOne) {
  const Fault fault = fault_from_json(R"({"api": 11, "error": 15, "group": "g1"})");
  EXPECT_EQ(fault.api, ApiKey::kJoinGroup);
  EXPECT_EQ(fault.error, ErrorCode::kCoordinatorNotAvailable);
  EXPECT_EQ(fault.count, 1);
  EXPECT_EQ(fault.group, "g1");
  // A code kgroupsd has no name for is still a Kafka code a test may want.
  EXPECT_EQ(static_cast<int>(fault_from_json(R"({"api": "Heartbeat", "error": 89})").error), 89);
}

TEST(FaultJson, ParsesLatencyCloseAndCoordinatorFaults) {
  const Fault latency = fault_from_json(R"({"api": "Fetch", "latency_ms": 300, "count": -1})");
  EXPECT_EQ(latency.action, FaultAction::kLatency);
  EXPECT_EQ(latency.latency_ms, 300);
  EXPECT_EQ(latency.remaining, Fault::kUntilDeleted);
  // Latency and close apply to every API served, even those without an error field here.
  const Fault close = fault_from_json(R"({"api": "Metadata", "close": true})");
  EXPECT_EQ(close.action, FaultAction::kClose);
  const Fault moved = fault_from_json(R"({"coordinator": "moved", "count": 3, "group": "g"})");
  EXPECT_EQ(moved.coordinator, CoordinatorFault::kMoved);
  EXPECT_EQ(moved.answered_error(), ErrorCode::kNotCoordinator);
  EXPECT_EQ(moved.count, 3);
  const Fault unavailable = fault_from_json(R"({"coordinator": "unavailable"})");
  EXPECT_EQ(unavailable.answered_error(), ErrorCode::kCoordinatorNotAvailable);
}

TEST(FaultJson, RefusesBadBodiesSayingWhatIsAccepted) {
  EXPECT_NE(refusal("{not json").find("not valid JSON"), std::string::npos);
  EXPECT_NE(refusal("[1]").find("JSON object"), std::string::npos);
  EXPECT_NE(refusal(R"({"error": "NOT_COORDINATOR"})").find("needs \"api\""), std::string::npos);
  EXPECT_NE(refusal(R"({"api": "Produce"})").find("exactly one of"), std::string::npos);
  EXPECT_NE(refusal(R"({"api": "Produce", "error": 6, "close": true})").find("exactly one of"),
            std::string::npos);
  const std::string unknown_api = refusal(R"({"api": "Produc", "error": 6})");
  EXPECT_NE(unknown_api.find("no API Produc"), std::string::npos);
  EXPECT_NE(unknown_api.find("PROTOCOL.md"), std::string::npos);
  EXPECT_NE(refusal(R"({"api": 27, "close": true})").find("no API 27"), std::string::npos);
  const std::string unknown_error = refusal(R"({"api": "Produce", "error": "NOT_LEADER"})");
  EXPECT_NE(unknown_error.find("unknown Kafka error name \"NOT_LEADER\""), std::string::npos);
  EXPECT_NE(refusal(R"({"api": "Produce", "error": "NONE"})").find("not an error"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"api": "Produce", "error": 0})").find("not an error code"),
            std::string::npos);
  const std::string unsupported = refusal(R"({"api": "Metadata", "error": 6})");
  EXPECT_NE(unsupported.find("cannot be injected into Metadata"), std::string::npos);
  EXPECT_NE(unsupported.find("Produce, Fetch, ListOffsets"), std::string::npos);
  EXPECT_NE(refusal(R"({"api": "JoinGroup", "error": 15, "topic": "t"})").find("no \"topic\""),
            std::string::npos);
  EXPECT_NE(refusal(R"({"api": "Produce", "error": 6, "group": "g"})").find("no \"group\""),
            std::string::npos);
  EXPECT_NE(refusal(R"({"api": "Fetch", "latency_ms": 5, "topic": "t"})").find("no topic"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"api": "Fetch", "latency_ms": 0})").find("1..300000"), std::string::npos);
  EXPECT_NE(refusal(R"({"api": "Fetch", "latency_ms": "5"})").find("integer"), std::string::npos);
  EXPECT_NE(refusal(R"({"api": "Fetch", "close": false})").find("must be true"), std::string::npos);
  EXPECT_NE(refusal(R"({"api": "Produce", "error": 6, "count": 0})").find("at least 1"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"api": "Produce", "error": 6, "count": -2})").find("-1.."),
            std::string::npos);
  EXPECT_NE(refusal(R"({"api": "Produce", "error": 6, "partition": -1})").find("partition"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"api": "Produce", "error": 6, "topic": ""})").find("non-empty"),
            std::string::npos);
  EXPECT_NE(
      refusal(R"({"api": "Produce", "error": 6, "topic": ")" + std::string(5000, 't') + R"("})")
          .find("at most 4096 bytes"),
      std::string::npos);
  EXPECT_NE(refusal(R"({"api": "Produce", "error": 6, "cuont": 2})").find("unknown field"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"coordinator": "gone"})").find("\"unavailable\" or \"moved\""),
            std::string::npos);
  EXPECT_NE(refusal(R"({"coordinator": "moved", "api": "JoinGroup"})").find("only"),
            std::string::npos);
}

TEST(FaultJson, ShowsAFaultWithItsIdAndRemaining) {
  Fault fault = fault_from_json(
      R"({"api": "Produce", "error": "NOT_LEADER_OR_FOLLOWER", "count": 2, "topic": "orders"})");
  fault.id = 7;
  fault.remaining = 1;
  const nlohmann::json shown = fault_to_json(fault);
  EXPECT_EQ(shown["id"], 7);
  EXPECT_EQ(shown["api"], "Produce");
  EXPECT_EQ(shown["api_key"], 0);
  EXPECT_EQ(shown["error"], "NOT_LEADER_OR_FOLLOWER");
  EXPECT_EQ(shown["error_code"], 6);
  EXPECT_EQ(shown["topic"], "orders");
  EXPECT_FALSE(shown.contains("partition"));
  EXPECT_EQ(shown["count"], 2);
  EXPECT_EQ(shown["remaining"], 1);
  const nlohmann::json coordinator = fault_to_json(fault_from_json(R"({"coordinator": "moved"})"));
  EXPECT_EQ(coordinator["coordinator"], "moved");
  EXPECT_EQ(coordinator["error"], "NOT_COORDINATOR");
  EXPECT_FALSE(coordinator.contains("api"));
}

}  // namespace
}  // namespace kgroups::broker
