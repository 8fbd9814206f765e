// SPDX-License-Identifier: Apache-2.0
#include "broker/http/fault_routes.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

namespace kgroups::broker::http {
namespace {

using nlohmann::json;

constexpr std::int64_t kMachineBytes = std::int64_t{8} << 30;

class FaultRoutes : public ::testing::Test {
 protected:
  FaultRoutes() { add_fault_routes(router_, broker_); }

  HttpResponse call(std::string method, std::string path, std::string body = {}) {
    HttpRequest request;
    request.method = std::move(method);
    request.path = std::move(path);
    request.body = std::move(body);
    return router_.dispatch(request).response;
  }

  Broker broker_{BrokerConfig{}, kMachineBytes};
  HttpRouter router_;
};

TEST_F(FaultRoutes, PostArmsAFaultAndAnswers201WithItsIdAndRemaining) {
  const HttpResponse created = call(
      "POST", "/v1/faults",
      R"({"api": "Produce", "error": "NOT_LEADER_OR_FOLLOWER", "count": 2, "topic": "orders"})");
  EXPECT_EQ(created.status, 201);
  const json fault = json::parse(created.body);
  EXPECT_EQ(fault["id"], 1);
  EXPECT_EQ(fault["remaining"], 2);
  EXPECT_EQ(fault["error"], "NOT_LEADER_OR_FOLLOWER");
  ASSERT_EQ(broker_.faults().armed().size(), 1u);
  EXPECT_EQ(broker_.faults().armed().front().topic, "orders");
}

TEST_F(FaultRoutes, GetListsTheArmedFaultsWithWhatIsLeft) {
  call("POST", "/v1/faults", R"({"api": "Heartbeat", "error": "REBALANCE_IN_PROGRESS"})");
  call("POST", "/v1/faults", R"({"coordinator": "unavailable", "count": 3})");
  EXPECT_EQ(broker_.faults().take_error(protocol::ApiKey::kJoinGroup, "g"),
            protocol::ErrorCode::kCoordinatorNotAvailable);
  const HttpResponse listed = call("GET", "/v1/faults");
  EXPECT_EQ(listed.status, 200);
  const json faults = json::parse(listed.body)["faults"];
  ASSERT_EQ(faults.size(), 2u);
  EXPECT_EQ(faults[0]["api"], "Heartbeat");
  EXPECT_EQ(faults[1]["coordinator"], "unavailable");
  EXPECT_EQ(faults[1]["remaining"], 2);
}

TEST_F(FaultRoutes, BadBodiesAnswer400AndArmNothing) {
  const HttpResponse refused =
      call("POST", "/v1/faults", R"({"api": "Produce", "error": "NO_SUCH_ERROR"})");
  EXPECT_EQ(refused.status, 400);
  EXPECT_NE(json::parse(refused.body)["error"]["message"].get<std::string>().find("NO_SUCH_ERROR"),
            std::string::npos);
  EXPECT_EQ(call("POST", "/v1/faults", R"({"api": "CreateTopics", "error": 6})").status, 400);
  EXPECT_EQ(call("POST", "/v1/faults", "").status, 400);
  EXPECT_TRUE(broker_.faults().empty());
}

TEST_F(FaultRoutes, DeleteOneAnswers404ForAnUnknownIdAndDeleteAllClearsThem) {
  call("POST", "/v1/faults", R"({"api": "Fetch", "latency_ms": 100})");
  call("POST", "/v1/faults", R"({"api": "Fetch", "close": true})");
  EXPECT_EQ(call("DELETE", "/v1/faults/9").status, 404);
  EXPECT_EQ(call("DELETE", "/v1/faults/abc").status, 404);
  EXPECT_EQ(call("DELETE", "/v1/faults/1").status, 200);
  ASSERT_EQ(broker_.faults().armed().size(), 1u);
  EXPECT_EQ(broker_.faults().armed().front().id, 2u);
  EXPECT_EQ(call("DELETE", "/v1/faults/1").status, 404);
  const HttpResponse cleared = call("DELETE", "/v1/faults");
  EXPECT_EQ(cleared.status, 200);
  EXPECT_EQ(json::parse(cleared.body)["deleted"], 1);
  EXPECT_TRUE(broker_.faults().empty());
}

TEST_F(FaultRoutes, PostBeyondTheBoundAnswers429) {
  for (std::size_t i = 0; i < FaultInjector::kMaxFaults; ++i) {
    ASSERT_EQ(call("POST", "/v1/faults", R"({"api": "Fetch", "latency_ms": 1})").status, 201);
  }
  const HttpResponse refused = call("POST", "/v1/faults", R"({"api": "Fetch", "latency_ms": 1})");
  EXPECT_EQ(refused.status, 429);
  EXPECT_NE(refused.body.find("1000 faults"), std::string::npos);
  EXPECT_EQ(broker_.faults().armed().size(), FaultInjector::kMaxFaults);
}

}  // namespace
}  // namespace kgroups::broker::http
