// SPDX-License-Identifier: Apache-2.0
//
// A partition reassignment as /v1/events shows it: reassignment_started when the move is
// accepted, reassignment_completed once every target is in the ISR and the leaving replicas
// went, reassignment_cancelled when null replicas bring the original replicas back, each with
// the target, adding and removing replicas and the replica set after it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "broker/node/broker.h"
#include "broker/node/three_broker_config_for_tests.h"

namespace kgroups::broker {
namespace {

using Json = nlohmann::json;
using Nodes = std::vector<std::int32_t>;
using protocol::ErrorCode;

// Three brokers with topic "t" of one partition on brokers 0 and 1.
class ReassignmentEvents : public ::testing::Test {
 protected:
  ReassignmentEvents() {
    EXPECT_EQ(broker_.cluster().create_topic("t", 1, std::nullopt, {.assignment = {{0, 1}}}),
              ErrorCode::kNone);
  }
  ErrorCode reassign(const Nodes& target) {
    std::string reason;
    return broker_.replication().reassign(*broker_.cluster().find_topic("t"), 0, target, reason);
  }
  ErrorCode cancel() {
    std::string reason;
    return broker_.replication().cancel_reassignment(*broker_.cluster().find_topic("t"), 0, reason);
  }
  // The reassignment events after `after_id`, without their id and time.
  std::vector<Json> reassignment_events(std::uint64_t after_id) {
    std::vector<Json> events;
    for (const Event* event : broker_.events().since(after_id)) {
      if (!event->type.starts_with("reassignment_")) continue;
      Json parsed = Json::parse(event->json);
      parsed.erase("id");
      parsed.erase("time_ms");
      events.push_back(std::move(parsed));
    }
    return events;
  }
  static Json event(const char* type, const Nodes& target, const Nodes& adding,
                    const Nodes& removing, const Nodes& replicas) {
    return Json{{"type", type},
                {"topic", "t"},
                {"partition", 0},
                {"target_replicas", target},
                {"adding_replicas", adding},
                {"removing_replicas", removing},
                {"replicas", replicas}};
  }

  Broker broker_{testing::three_broker_config(), testing::kTestMachineBytes};
};

TEST_F(ReassignmentEvents, AMoveIsStartedThenCompletedOnceTheAddedReplicaIsInSync) {
  const std::uint64_t before = broker_.events().last_id();
  ASSERT_EQ(reassign({1, 2}), ErrorCode::kNone);
  EXPECT_EQ(reassignment_events(before),
            (std::vector<Json>{event("reassignment_started", {1, 2}, {2}, {0}, {1, 2, 0})}));
  broker_.replication().tick();  // broker 2 catches up and joins the ISR; broker 0 leaves
  EXPECT_EQ(reassignment_events(before),
            (std::vector<Json>{event("reassignment_started", {1, 2}, {2}, {0}, {1, 2, 0}),
                               event("reassignment_completed", {1, 2}, {2}, {0}, {1, 2})}));
}

TEST_F(ReassignmentEvents, ACancelledMoveSaysSoWithTheOriginalReplicasBack) {
  ASSERT_EQ(broker_.replication().stop(2), ErrorCode::kNone);
  const std::uint64_t before = broker_.events().last_id();
  ASSERT_EQ(reassign({0, 2}), ErrorCode::kNone);
  broker_.replication().tick();  // broker 2 is stopped: the move stays in progress
  ASSERT_EQ(cancel(), ErrorCode::kNone);
  EXPECT_EQ(reassignment_events(before),
            (std::vector<Json>{event("reassignment_started", {0, 2}, {2}, {1}, {0, 2, 1}),
                               event("reassignment_cancelled", {0, 2}, {2}, {1}, {0, 1})}));
}

TEST_F(ReassignmentEvents, AReorderStartsAndCompletesAtOnceAndARefusalIsNoEvent) {
  const std::uint64_t before = broker_.events().last_id();
  ASSERT_EQ(reassign({1, 0}), ErrorCode::kNone);
  EXPECT_EQ(reassign({1, 1}), ErrorCode::kInvalidReplicaAssignment);
  EXPECT_EQ(cancel(), ErrorCode::kNoReassignmentInProgress);
  EXPECT_EQ(reassignment_events(before),
            (std::vector<Json>{event("reassignment_started", {1, 0}, {}, {}, {1, 0}),
                               event("reassignment_completed", {1, 0}, {}, {}, {1, 0})}));
}

}  // namespace
}  // namespace kgroups::broker
