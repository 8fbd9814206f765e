// SPDX-License-Identifier: Apache-2.0
//
// The playground on an in-process Broker driven by an io_context: simulated consumers that
// rebalance eagerly and cooperatively through the broker's coordinator, a crash expired on the
// manual clock with the records it read again, producers at a rate, and the routes' bounds and
// errors.
#include "broker/http/playground_routes.h"

#include <gtest/gtest.h>

#include <asio/io_context.hpp>
#include <chrono>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "broker/http/http_router.h"
#include "broker/http/inspection_routes.h"
#include "broker/node/broker.h"
#include "protocol/record_batch_builder.h"

namespace kgroups::broker::http {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr std::int64_t kMachineBytes = std::int64_t{8} << 30;

playground::PlaygroundTiming fast_timing() {
  playground::PlaygroundTiming timing;
  timing.consumer_tick = 2ms;
  timing.heartbeat_interval = 10ms;
  timing.auto_commit_interval = 20ms;
  timing.retry_backoff = 10ms;
  timing.producer_tick = 5ms;
  return timing;
}

class PlaygroundRoutesTest : public ::testing::Test {
 protected:
  explicit PlaygroundRoutesTest(playground::PlaygroundTiming timing = fast_timing())
      : broker_(config(), kMachineBytes) {
    add_inspection_routes(router_, broker_);
    add_playground_routes(router_, broker_, io_.get_executor(), timing);
  }

  static BrokerConfig config() {
    BrokerConfig config;
    config.manual_clock = true;
    config.initial_rebalance_delay_ms = 0;
    return config;
  }

  HttpResponse call(const std::string& method, const std::string& path, std::string body = {}) {
    HttpRequest request;
    request.method = method;
    const std::size_t question = path.find('?');
    request.path = path.substr(0, question);
    if (question != std::string::npos) request.query = path.substr(question + 1);
    request.body = std::move(body);
    return router_.dispatch(request).response;
  }

  json call_json(const std::string& method, const std::string& path, const std::string& body,
                 int status) {
    const HttpResponse response = call(method, path, body);
    EXPECT_EQ(response.status, status)
        << method << " " << path << " " << body << ": " << response.body;
    return json::parse(response.body);
  }

  json consumers() { return call_json("GET", "/v1/playground", "", 200)["consumers"]; }

  // Runs the io_context until `done` holds; fails after `limit` of real time.
  void run_until(const std::function<bool()>& done, std::chrono::milliseconds limit = 5s) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!done()) {
      if (std::chrono::steady_clock::now() > deadline) {
        ADD_FAILURE() << "timed out; playground: " << call("GET", "/v1/playground").body;
        return;
      }
      io_.restart();
      io_.run_for(2ms);
    }
  }

  void run_for(std::chrono::milliseconds duration) {
    io_.restart();
    io_.run_for(duration);
  }

  // Whether every running consumer is stable and together they own `partitions` partitions,
  // each once.
  bool settled(std::size_t partitions) {
    std::multiset<int> owned;
    for (const json& consumer : consumers()) {
      if (consumer["state"] == "stopped") continue;
      if (consumer["state"] != "stable") return false;
      for (const json& partition : consumer["assignment"]) owned.insert(partition.get<int>());
    }
    return owned.size() == partitions &&
           std::set<int>(owned.begin(), owned.end()).size() == partitions;
  }

  std::int64_t total(const char* field) {
    std::int64_t sum = 0;
    for (const json& consumer : consumers()) sum += consumer[field].get<std::int64_t>();
    return sum;
  }

  std::vector<json> events(const std::string& type) {
    std::vector<json> out;
    for (const Event* event : broker_.events().since(0)) {
      if (event->type == type) out.push_back(json::parse(event->json));
    }
    return out;
  }

  // Appends `count` records to every partition of `topic`.
  void append_to_every_partition(const std::string& topic, int count) {
    StoredTopic* found = broker_.cluster().find_topic(topic);
    ASSERT_NE(found, nullptr);
    for (std::size_t partition = 0; partition < found->partitions.size(); ++partition) {
      protocol::RecordBatchBuilder builder;
      for (int i = 0; i < count; ++i) {
        builder.add(protocol::ByteView::of("k"), protocol::ByteView::of("v"), 1000);
      }
      const std::vector<std::uint8_t> batch = builder.build();
      ASSERT_TRUE(broker_.cluster()
                      .append(*found, static_cast<std::int32_t>(partition), batch, count - 1, 1000)
                      .has_value());
    }
  }

  // Advances the manual clock by `total`, 2 s at a time, letting the consumers heartbeat in
  // between.
  void advance_clock(std::chrono::milliseconds total) {
    for (std::chrono::milliseconds done{0}; done < total; done += 2s) {
      broker_.groups().advance_clock(2s);
      run_for(40ms);
    }
  }

  // Declared in this order so that the router (which owns the playground) goes first, then
  // the io_context, then the broker.
  Broker broker_;
  asio::io_context io_;
  HttpRouter router_;
};

TEST_F(PlaygroundRoutesTest, ThreeRangeConsumersMakeThreeGenerationsCoveringEveryPartition) {
  for (int i = 1; i <= 3; ++i) {
    const json created = call_json("POST", "/v1/playground/consumers", "", 201);
    EXPECT_EQ(created["id"], i);
    EXPECT_EQ(created["group"], "playground");
    EXPECT_EQ(created["assignor"], "range");
    EXPECT_EQ(created["protocol"], "eager");
    run_until([&] { return settled(6) && consumers().size() == static_cast<std::size_t>(i); });
  }
  const std::vector<json> rebalances = events("rebalance_completed");
  ASSERT_EQ(rebalances.size(), 3U);
  for (std::size_t i = 0; i < rebalances.size(); ++i) {
    EXPECT_EQ(rebalances[i]["generation"], i + 1);
    EXPECT_EQ(rebalances[i]["assignment"].size(), i + 1);
  }
  // Range over three members sorted by id: two partitions each.
  for (const json& consumer : consumers()) EXPECT_EQ(consumer["assignment"].size(), 2U);
  // The playground's topic, and __consumer_offsets once its consumers commit.
  std::vector<json> created = events("topic_created");
  std::erase_if(created, [](const json& event) { return event["topic"] == "__consumer_offsets"; });
  ASSERT_EQ(created.size(), 1U);
  EXPECT_EQ(created[0]["partitions"], 6);
  // The coordinator decodes their assignments like a real client's.
  const json group = call_json("GET", "/v1/groups/playground", "", 200);
  EXPECT_EQ(group["state"], "Stable");
  ASSERT_EQ(group["members"].size(), 3U);
  for (const json& member : group["members"]) {
    EXPECT_EQ(member["client_id"], "kgroups-playground");
    ASSERT_EQ(member["assignment"].size(), 1U) << member.dump();
    EXPECT_EQ(member["assignment"][0]["partitions"].size(), 2U) << member.dump();
  }
}

TEST_F(PlaygroundRoutesTest, LeavingMemberHandsItsPartitionsOverAtOnce) {
  call_json("POST", "/v1/playground/consumers", R"({"group": "g", "topic": "t"})", 201);
  run_until([&] { return settled(6); });
  call_json("POST", "/v1/playground/consumers", R"({"group": "g", "topic": "t"})", 201);
  run_until([&] { return settled(6) && consumers()[1]["state"] == "stable"; });
  const json left = call_json("DELETE", "/v1/playground/consumers/1", "", 200);
  EXPECT_EQ(left["state"], "stopped");
  EXPECT_TRUE(left["assignment"].empty());
  run_until([&] { return settled(6); });
  EXPECT_EQ(consumers()[1]["assignment"].size(), 6U);
  ASSERT_FALSE(events("member_left").empty());
}

TEST_F(PlaygroundRoutesTest, CooperativeStickyKeepsPartitionsThatStayAndMovesTheRestInTwoSteps) {
  ASSERT_EQ(broker_.cluster().create_topic("coop", 6), protocol::ErrorCode::kNone);
  append_to_every_partition("coop", 100);
  const std::string body = R"({"group": "c", "topic": "coop", "assignor": "cooperative-sticky"})";
  const json first = call_json("POST", "/v1/playground/consumers", body, 201);
  EXPECT_EQ(first["protocol"], "cooperative");
  run_until([&] { return settled(6) && total("consumed") == 600; });
  const std::size_t rebalances_before = events("rebalance_completed").size();
  ASSERT_EQ(rebalances_before, 1U);

  call_json("POST", "/v1/playground/consumers", body, 201);
  run_until([&] { return settled(6) && consumers()[1]["assignment"].size() == 3U; });
  const json now = consumers();
  EXPECT_EQ(now[0]["assignment"], json({0, 1, 2}));  // kept: the lowest of its partitions
  EXPECT_EQ(now[1]["assignment"], json({3, 4, 5}));
  // Positions kept and committed ones handed over: nothing read twice.
  EXPECT_EQ(total("consumed"), 600);
  EXPECT_EQ(total("replayed"), 0);
  EXPECT_TRUE(events("records_replayed").empty());

  // Two rebalances: the first leaves the moving partitions unassigned while their owner
  // revokes them, the second hands them over. The first member never loses 0-2.
  const std::vector<json> rebalances = events("rebalance_completed");
  ASSERT_EQ(rebalances.size(), 3U);
  const std::string first_member = now[0]["member_id"];
  const std::string second_member = now[1]["member_id"];
  const json& middle = rebalances[1]["assignment"];
  EXPECT_EQ(middle[first_member], json::parse(R"([{"topic": "coop", "partitions": [0, 1, 2]}])"));
  EXPECT_EQ(middle[second_member], json::array());
  const json& last = rebalances[2]["assignment"];
  EXPECT_EQ(last[first_member], json::parse(R"([{"topic": "coop", "partitions": [0, 1, 2]}])"));
  EXPECT_EQ(last[second_member], json::parse(R"([{"topic": "coop", "partitions": [3, 4, 5]}])"));
}

// Commits only when partitions are revoked, so what a crashed member read stays uncommitted.
class PlaygroundCrashTest : public PlaygroundRoutesTest {
 protected:
  static playground::PlaygroundTiming no_auto_commit() {
    playground::PlaygroundTiming timing = fast_timing();
    timing.auto_commit_interval = std::chrono::hours(1);
    return timing;
  }
  PlaygroundCrashTest() : PlaygroundRoutesTest(no_auto_commit()) {}
};

TEST_F(PlaygroundCrashTest, CrashedMemberExpiresAndItsUncommittedRecordsAreReplayed) {
  ASSERT_EQ(broker_.cluster().create_topic("crash", 6), protocol::ErrorCode::kNone);
  append_to_every_partition("crash", 100);
  const std::string body = R"({"group": "g", "topic": "crash", "session_timeout_ms": 10000})";
  // The first member reads everything; the others join after it (eager members commit
  // before they revoke), so nothing is read twice before the crash.
  for (int i = 1; i <= 3; ++i) {
    call_json("POST", "/v1/playground/consumers", body, 201);
    run_until([&] {
      return settled(6) && consumers().size() == static_cast<std::size_t>(i) &&
             total("consumed") == 600;
    });
  }
  ASSERT_TRUE(events("records_replayed").empty());
  append_to_every_partition("crash", 10);
  run_until([&] { return total("consumed") == 660; });
  const json victim = consumers()[2];
  ASSERT_EQ(victim["assignment"].size(), 2U);

  const json crashed = call_json("DELETE", "/v1/playground/consumers/3?crash=true", "", 200);
  EXPECT_EQ(crashed["state"], "stopped");
  const std::size_t rebalances = events("rebalance_completed").size();
  run_for(50ms);
  EXPECT_EQ(events("rebalance_completed").size(), rebalances);  // no LeaveGroup: nothing yet
  EXPECT_TRUE(events("member_left").empty());

  advance_clock(12s);
  run_until([&] { return settled(6) && total("replayed") == 20; });
  ASSERT_EQ(events("member_expired").size(), 1U);
  EXPECT_EQ(events("member_expired")[0]["member_id"], victim["member_id"]);
  const json survivors = consumers();
  EXPECT_EQ(survivors[0]["assignment"].size() + survivors[1]["assignment"].size(), 6U);

  // The victim's 10 records per partition, read again from the last commit.
  const std::vector<json> replays = events("records_replayed");
  ASSERT_EQ(replays.size(), 2U);
  const int generation = events("rebalance_completed").back()["generation"];
  std::set<int> partitions;
  for (const json& replay : replays) {
    EXPECT_EQ(replay["group_id"], "g");
    EXPECT_EQ(replay["group_type"], "classic");
    EXPECT_EQ(replay["generation"], generation);
    EXPECT_EQ(replay["topic"], "crash");
    EXPECT_EQ(replay["from"], 100);
    EXPECT_EQ(replay["to"], 110);
    EXPECT_EQ(replay["count"], 10);
    EXPECT_NE(replay["member_id"], victim["member_id"]);
    partitions.insert(replay["partition"].get<int>());
  }
  std::set<int> victim_partitions;
  for (const json& partition : victim["assignment"]) victim_partitions.insert(partition.get<int>());
  EXPECT_EQ(partitions, victim_partitions);
}

TEST_F(PlaygroundRoutesTest, ProducerAppendsAtItsRateUntilStopped) {
  const json created =
      call_json("POST", "/v1/playground/producers", R"({"topic": "made", "rate": 1000})", 201);
  EXPECT_EQ(created["id"], 1);
  EXPECT_EQ(created["rate"], 1000);
  ASSERT_NE(broker_.cluster().find_topic("made"), nullptr);
  EXPECT_EQ(broker_.cluster().find_topic("made")->partitions.size(), 6U);
  const auto end_offsets = [&] {
    std::int64_t sum = 0;
    for (const BatchLog& log : broker_.cluster().find_topic("made")->partitions) {
      sum += log.high_watermark();
    }
    return sum;
  };
  run_until([&] { return end_offsets() >= 50; });
  json producers = call_json("GET", "/v1/playground", "", 200)["producers"];
  ASSERT_EQ(producers.size(), 1U);
  EXPECT_EQ(producers[0]["produced"], end_offsets());
  // Keyed records spread over several partitions.
  int non_empty = 0;
  for (const BatchLog& log : broker_.cluster().find_topic("made")->partitions) {
    non_empty += log.high_watermark() > 0 ? 1 : 0;
  }
  EXPECT_GE(non_empty, 2);

  call_json("DELETE", "/v1/playground/producers/1", "", 200);
  const std::int64_t stopped_at = end_offsets();
  run_for(30ms);
  EXPECT_EQ(end_offsets(), stopped_at);
  EXPECT_TRUE(call_json("GET", "/v1/playground", "", 200)["producers"].empty());
}

TEST_F(PlaygroundRoutesTest, BadBodiesGet400NamingTheField) {
  const auto message = [&](const std::string& path, const std::string& body) {
    return call_json("POST", path, body, 400)["error"]["message"].get<std::string>();
  };
  EXPECT_NE(message("/v1/playground/producers", R"({"rate": 0})").find("rate"), std::string::npos);
  EXPECT_NE(message("/v1/playground/producers", R"({"rate": 10001})").find("10000"),
            std::string::npos);
  EXPECT_NE(message("/v1/playground/producers", R"({"rate": "fast"})").find("rate"),
            std::string::npos);
  EXPECT_NE(message("/v1/playground/producers", R"({"topic": "a b"})").find("topic"),
            std::string::npos);
  EXPECT_NE(message("/v1/playground/producers", "{nope").find("JSON object"), std::string::npos);
  EXPECT_NE(message("/v1/playground/consumers", R"({"assignor": "fastest"})").find("assignor"),
            std::string::npos);
  EXPECT_NE(message("/v1/playground/consumers", R"({"group": 7})").find("group"),
            std::string::npos);
  EXPECT_NE(message("/v1/playground/consumers", R"({"grup": "x"})").find("grup"),
            std::string::npos);
  EXPECT_NE(message("/v1/playground/consumers", R"({"session_timeout_ms": 100})")
                .find("session_timeout_ms"),
            std::string::npos);
  EXPECT_EQ(call("DELETE", "/v1/playground/consumers/abc").status, 400);
  EXPECT_EQ(call("DELETE", "/v1/playground/consumers/9").status, 404);
  EXPECT_EQ(call("DELETE", "/v1/playground/producers/9").status, 404);
  // Nothing was started by the refused requests.
  const json state = call_json("GET", "/v1/playground", "", 200);
  EXPECT_TRUE(state["consumers"].empty());
  EXPECT_TRUE(state["producers"].empty());
  EXPECT_EQ(broker_.cluster().find_topic("playground"), nullptr);
}

TEST_F(PlaygroundRoutesTest, BoundsAnswer409) {
  for (int i = 0; i < 8; ++i) call_json("POST", "/v1/playground/producers", "", 201);
  EXPECT_NE(call_json("POST", "/v1/playground/producers", "", 409)["error"]["message"]
                .get<std::string>()
                .find("8"),
            std::string::npos);
  for (int i = 0; i < 32; ++i) call_json("POST", "/v1/playground/consumers", "", 201);
  call_json("POST", "/v1/playground/consumers", "", 409);
  // Another assignor in the same group would be refused by the coordinator.
  const json mixed = call_json("DELETE", "/v1/playground/consumers/1", "", 200);
  EXPECT_EQ(mixed["state"], "stopped");
  EXPECT_EQ(call("DELETE", "/v1/playground/consumers/1?crash=maybe").status, 400);
  EXPECT_NE(call_json("POST", "/v1/playground/consumers", R"({"assignor": "sticky"})",
                      409)["error"]["message"]
                .get<std::string>()
                .find("range"),
            std::string::npos);
  call_json("POST", "/v1/playground/consumers", R"({"assignor": "sticky", "group": "other"})", 201);
}

}  // namespace
}  // namespace kgroups::broker::http
