// SPDX-License-Identifier: Apache-2.0
//
// The control endpoint's routes on an in-process Broker: topics, groups (members, decoded
// assignments, committed offsets and lag), the manual clock, and /metrics.
#include <gtest/gtest.h>

#include <asio/io_context.hpp>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "broker/http/http_router.h"
#include "broker/http/http_routes.h"
#include "broker/node/broker.h"
#include "protocol/record_batch_builder.h"

namespace kgroups::broker::http {
namespace {

using nlohmann::json;

constexpr std::int64_t kMachineBytes = std::int64_t{8} << 30;

// ConsumerProtocolAssignment v0 of `topic` with `partitions`, no user data.
std::vector<std::uint8_t> consumer_assignment(const std::string& topic,
                                              const std::vector<std::int32_t>& partitions) {
  std::vector<std::uint8_t> out;
  const auto put = [&out](std::int64_t value, int bytes) {
    for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
  };
  put(0, 2);
  put(1, 4);
  put(static_cast<std::int64_t>(topic.size()), 2);
  out.insert(out.end(), topic.begin(), topic.end());
  put(static_cast<std::int64_t>(partitions.size()), 4);
  for (const std::int32_t partition : partitions) put(partition, 4);
  put(-1, 4);
  return out;
}

class RoutesTest : public ::testing::Test {
 protected:
  explicit RoutesTest(bool manual_clock = true, std::int32_t brokers = 1)
      : broker_(config(manual_clock, brokers), kMachineBytes) {
    build_http_routes(router_, broker_, io_.get_executor());
  }

  // With `brokers` > 1, topics get one replica per broker.
  static BrokerConfig config(bool manual_clock, std::int32_t brokers) {
    BrokerConfig config;
    config.manual_clock = manual_clock;
    config.brokers = brokers;
    config.default_replication_factor = brokers;
    config.http_max_metrics_bytes = 65536;  // the smallest allowed, so a test can pass it
    config.initial_rebalance_delay_ms = 0;  // join_and_sync() expects the join answered at once
    config.http_max_group_offsets = 1;      // so that g1's two rows are cut
    return config;
  }

  HttpResponse call(const std::string& method, const std::string& path, std::string body = {}) {
    HttpRequest request;
    request.method = method;
    request.path = path;
    request.body = std::move(body);
    return router_.dispatch(request).response;
  }

  json get_json(const std::string& path, int status = 200) {
    const HttpResponse response = call("GET", path);
    EXPECT_EQ(response.status, status) << path << ": " << response.body;
    return json::parse(response.body);
  }

  // orders: 2 partitions, one record in partition 0.
  void create_orders() {
    ASSERT_EQ(broker_.cluster().create_topic("orders", 2), protocol::ErrorCode::kNone);
    protocol::RecordBatchBuilder builder;
    builder.add(protocol::ByteView::of("k"), protocol::ByteView::of("v"), 1000);
    const std::vector<std::uint8_t> batch = builder.build();
    ASSERT_EQ(broker_.cluster()
                  .append(*broker_.cluster().find_topic("orders"), 0, batch, 0, 1000)
                  .value(),
              0);
  }

  // A one-member classic group "g1" (consumer protocol, range) holding orders 0-1, with
  // offset 0 committed for partition 0; returns the member id.
  std::string join_and_sync(std::int32_t session_timeout_ms) {
    JoinGroupParams join;
    join.group_id = "g1";
    join.client_id = "client-a";
    join.client_host = "/127.0.0.1";
    join.session_timeout_ms = session_timeout_ms;
    join.protocol_type = "consumer";
    join.protocols = {{"range", {0, 0}}};
    std::optional<JoinGroupResult> joined;
    broker_.groups().join_group(join, [&](JoinGroupResult result) { joined = std::move(result); });
    EXPECT_TRUE(joined.has_value());
    if (!joined) return {};
    EXPECT_EQ(joined->error, GroupError::kNone);
    SyncGroupParams sync;
    sync.group_id = "g1";
    sync.generation_id = joined->generation_id;
    sync.member_id = joined->member_id;
    sync.assignments = {{joined->member_id, consumer_assignment("orders", {0, 1})}};
    std::optional<SyncGroupResult> synced;
    broker_.groups().sync_group(sync, [&](SyncGroupResult result) { synced = std::move(result); });
    EXPECT_TRUE(synced.has_value() && synced->error == GroupError::kNone);
    OffsetCommitParams commit;
    commit.group_id = "g1";
    commit.generation_id = joined->generation_id;
    commit.member_id = joined->member_id;
    commit.offsets = {{{"orders", 0}, {0, "meta"}}};
    EXPECT_EQ(broker_.groups().commit_offsets(commit).error, GroupError::kNone);
    return joined->member_id;
  }

  asio::io_context io_;  // the event streams' keep-alive timers (none run in these tests)
  Broker broker_;
  HttpRouter router_;
};

class RealClockRoutesTest : public RoutesTest {
 protected:
  RealClockRoutesTest() : RoutesTest(false) {}
};

// Three brokers (--brokers 3), topics replicated on all three.
class ClusterRoutesTest : public RoutesTest {
 protected:
  ClusterRoutesTest() : RoutesTest(true, 3) {}
};

TEST_F(RoutesTest, TopicsListPartitionsWithOffsetsAndBytes) {
  create_orders();
  const json topics = get_json("/v1/topics");
  ASSERT_EQ(topics["topics"].size(), 1U);
  const json& orders = topics["topics"][0];
  EXPECT_EQ(orders["name"], "orders");
  EXPECT_EQ(orders["id"].get<std::string>().size(), 22U);
  ASSERT_EQ(orders["partitions"].size(), 2U);
  EXPECT_EQ(orders["partitions"][0]["end_offset"], 1);
  EXPECT_EQ(orders["partitions"][0]["log_start_offset"], 0);
  EXPECT_GT(orders["partitions"][0]["bytes"].get<std::int64_t>(), 0);
  EXPECT_EQ(orders["partitions"][1]["end_offset"], 0);
  EXPECT_FALSE(orders.contains("configs"));

  const json one = get_json("/v1/topics/orders");
  EXPECT_EQ(one["name"], "orders");
  EXPECT_TRUE(one["configs"].is_object());
  const json missing = get_json("/v1/topics/nope", 404);
  EXPECT_EQ(missing["error"]["status"], 404);
}

TEST_F(RoutesTest, GroupShowsMembersDecodedAssignmentCommittedOffsetsAndLag) {
  create_orders();
  const std::string member = join_and_sync(10000);

  const json list = get_json("/v1/groups");
  ASSERT_EQ(list["groups"].size(), 1U);
  EXPECT_EQ(list["groups"][0]["group_id"], "g1");
  EXPECT_EQ(list["groups"][0]["type"], "classic");
  EXPECT_EQ(list["groups"][0]["state"], "Stable");
  EXPECT_EQ(list["groups"][0]["members"], 1);
  EXPECT_EQ(list["groups"][0]["coordinator"], 0);  // the one broker

  const json group = get_json("/v1/groups/g1");
  EXPECT_EQ(group["protocol_type"], "consumer");
  EXPECT_EQ(group["protocol"], "range");
  EXPECT_EQ(group["generation"], 1);
  EXPECT_EQ(group["leader"], member);
  ASSERT_EQ(group["members"].size(), 1U);
  EXPECT_EQ(group["members"][0]["member_id"], member);
  EXPECT_EQ(group["members"][0]["client_id"], "client-a");
  EXPECT_EQ(group["members"][0]["host"], "/127.0.0.1");
  EXPECT_TRUE(group["members"][0]["instance_id"].is_null());
  EXPECT_EQ(group["members"][0]["assignment"],
            json::parse(R"([{"topic": "orders", "partitions": [0, 1]}])"));
  // --http-max-group-offsets 1: the first row of two, in topic and partition order, with
  // the total and the lag of both.
  ASSERT_EQ(group["offsets"].size(), 1U);
  EXPECT_EQ(group["offsets"][0], json::parse(R"({"topic": "orders", "partition": 0,
      "committed": 0, "end_offset": 1, "lag": 1, "metadata": "meta"})"));
  EXPECT_EQ(group["offsets_total"], 2);
  EXPECT_EQ(group["offsets_truncated"], true);
  EXPECT_EQ(group["lag"], 1);
  // The list of groups summarizes: no offsets, no assignments.
  EXPECT_FALSE(list["groups"][0].contains("offsets"));

  EXPECT_EQ(get_json("/v1/groups/unknown", 404)["error"]["status"], 404);
}

TEST_F(RoutesTest, ManualClockExpiresAMemberOnlyWhenAdvancedPastItsSession) {
  create_orders();
  join_and_sync(10000);
  EXPECT_EQ(get_json("/v1/clock"), json::parse(R"({"manual": true, "now_ms": 0})"));

  HttpResponse advanced = call("POST", "/v1/clock/advance", R"({"ms": 9999})");
  ASSERT_EQ(advanced.status, 200) << advanced.body;
  EXPECT_EQ(json::parse(advanced.body)["now_ms"], 9999);
  EXPECT_EQ(get_json("/v1/groups/g1")["members"].size(), 1U);

  advanced = call("POST", "/v1/clock/advance", R"({"ms": 2})");
  ASSERT_EQ(advanced.status, 200) << advanced.body;
  const json group = get_json("/v1/groups/g1");
  EXPECT_EQ(group["members"].size(), 0U);
  EXPECT_EQ(group["state"], "Empty");
  EXPECT_EQ(group["offsets"][0]["committed"], 0);  // offsets stay
}

TEST_F(RoutesTest, ClockAdvanceRefusesBadBodies) {
  for (const char* body : {"", "[]", R"({"ms": -1})", R"({"ms": 1.5})", R"({"ms": "5"})", "{}",
                           R"({"ms": 99999999999999999999})"}) {
    const HttpResponse response = call("POST", "/v1/clock/advance", body);
    EXPECT_EQ(response.status, 400) << body;
  }
  EXPECT_EQ(get_json("/v1/clock")["now_ms"], 0);
}

TEST_F(RoutesTest, ClockAdvanceRefusesToMovePastACenturyAndMovesNothing) {
  const std::string year = R"({"ms": 31536000000})";  // the longest single advance
  for (int i = 0; i < 100; ++i) {
    ASSERT_EQ(call("POST", "/v1/clock/advance", year).status, 200) << "year " << i + 1;
  }
  const json before = get_json("/v1/clock");
  EXPECT_EQ(before["now_ms"], 3153600000000LL);
  const HttpResponse refused = call("POST", "/v1/clock/advance", R"({"ms": 1})");
  EXPECT_EQ(refused.status, 400);
  EXPECT_NE(refused.body.find("at most a century"), std::string::npos) << refused.body;
  EXPECT_EQ(get_json("/v1/clock"), before);
  EXPECT_EQ(call("POST", "/v1/clock/advance", R"({"ms": 0})").status, 200);
}

TEST_F(RealClockRoutesTest, ClockAdvanceIs409WithoutTheManualClock) {
  const HttpResponse response = call("POST", "/v1/clock/advance", R"({"ms": 1000})");
  EXPECT_EQ(response.status, 409);
  EXPECT_NE(response.body.find("--manual-clock"), std::string::npos);
  EXPECT_EQ(get_json("/v1/clock")["manual"], false);
}

TEST_F(RoutesTest, MetricsReportOffsetsLagGroupsAndCountedErrors) {
  create_orders();
  join_and_sync(10000);
  broker_.metrics().count_error(protocol::ApiKey::kProduce,
                                protocol::ErrorCode::kNotLeaderForPartition);
  broker_.metrics().count_request(protocol::ApiKey::kProduce);
  const HttpResponse response = call("GET", "/metrics");
  ASSERT_EQ(response.status, 200);
  EXPECT_EQ(response.content_type.rfind("text/plain; version=0.0.4", 0), 0U);
  const std::string& text = response.body;
  for (const char* line :
       {"kgroupsd_requests_total{api=\"Produce\"} 1\n",
        "kgroupsd_requests_total{api=\"Fetch\"} 0\n",
        "kgroupsd_request_errors_total{api=\"Produce\",error=\"NOT_LEADER_OR_FOLLOWER\"} 1\n",
        "kgroupsd_partition_end_offset{topic=\"orders\",partition=\"0\"} 1\n",
        "kgroupsd_groups{state=\"Stable\"} 1\n",
        "kgroupsd_group_lag{group=\"g1\",topic=\"orders\",partition=\"0\"} 1\n",
        "kgroupsd_group_lag{group=\"g1\",topic=\"orders\",partition=\"1\"} 0\n",
        "# TYPE kgroupsd_bytes_received_total counter\n"}) {
    EXPECT_NE(text.find(line), std::string::npos) << "missing " << line << " in\n" << text;
  }
}

TEST_F(RoutesTest, MetricsOfOneBrokerLeaveTheClusterFamiliesOut) {
  create_orders();
  const std::string text = call("GET", "/metrics").body;
  for (const char* name : {"kgroupsd_broker_up", "kgroupsd_partition_leader",
                           "kgroupsd_partition_isr_size", "kgroupsd_leader_elections_total"}) {
    EXPECT_EQ(text.find(name), std::string::npos) << name << " in\n" << text;
  }
}

TEST_F(ClusterRoutesTest, GroupsNameTheBrokerThatCoordinatesThemAndFollowItsMove) {
  create_orders();
  join_and_sync(10000);
  const std::int32_t coordinator = get_json("/v1/groups/g1")["coordinator"];
  EXPECT_EQ(coordinator, broker_.coordinator_for("g1"));
  EXPECT_EQ(get_json("/v1/groups")["groups"][0]["coordinator"], coordinator);
  const HttpResponse stopped =
      call("POST", "/v1/brokers/" + std::to_string(coordinator) + "/stop", "{}");
  ASSERT_EQ(stopped.status, 200) << stopped.body;
  const json moved = get_json("/v1/groups/g1")["coordinator"];
  ASSERT_TRUE(moved.is_number()) << moved;
  EXPECT_NE(moved, coordinator);
  EXPECT_EQ(moved, broker_.coordinator_for("g1"));
}

TEST_F(ClusterRoutesTest, MetricsReportBrokersReplicasAndTheElectionsAStopCauses) {
  create_orders();
  const std::int32_t leader = get_json("/v1/topics/orders")["partitions"][0]["leader"];
  const HttpResponse stopped =
      call("POST", "/v1/brokers/" + std::to_string(leader) + "/stop", "{}");
  ASSERT_EQ(stopped.status, 200) << stopped.body;
  const json partition = get_json("/v1/topics/orders")["partitions"][0];
  const std::int32_t new_leader = partition["leader"];
  ASSERT_NE(new_leader, leader);
  std::int64_t elections = 0;
  for (const json& event : get_json("/v1/events/log")) {
    if (event["type"] == "leader_elected") ++elections;
  }
  ASSERT_GE(elections, 1);

  const HttpResponse response = call("GET", "/metrics");
  ASSERT_EQ(response.status, 200);
  const std::string& text = response.body;
  const std::string p0 = R"({topic="orders",partition="0"})";
  const std::string stopped_broker = "broker=\"" + std::to_string(leader) + "\"";
  for (const std::string& line : std::vector<std::string>{
           "# TYPE kgroupsd_broker_up gauge\n", "kgroupsd_broker_up{" + stopped_broker + "} 0\n",
           "kgroupsd_broker_up{broker=\"" + std::to_string(new_leader) + "\"} 1\n",
           "kgroupsd_broker_state{" + stopped_broker + ",state=\"stopped\"} 1\n",
           "kgroupsd_broker_state{" + stopped_broker + ",state=\"running\"} 0\n",
           "# TYPE kgroupsd_leader_elections_total counter\n",
           "kgroupsd_leader_elections_total " + std::to_string(elections) + "\n",
           "kgroupsd_unclean_leader_elections_total 0\n", "kgroupsd_isr_expands_total 0\n",
           "kgroupsd_partition_leader" + p0 + " " + std::to_string(new_leader) + "\n",
           "kgroupsd_partition_replicas" + p0 + " 3\n", "kgroupsd_partition_isr_size" + p0 + " 2\n",
           "kgroupsd_partition_high_watermark" + p0 + " 1\n",
           "kgroupsd_partition_log_end_offset" + p0 + " 1\n",
           "kgroupsd_partition_end_offset" + p0 + " 1\n"}) {
    EXPECT_NE(text.find(line), std::string::npos) << "missing " << line << " in\n" << text;
  }
  EXPECT_EQ(text.find("kgroupsd_isr_shrinks_total 0\n"), std::string::npos) << text;

  ASSERT_EQ(call("POST", "/v1/brokers/" + std::to_string(leader) + "/start", "{}").status, 200);
  EXPECT_NE(call("GET", "/metrics").body.find("kgroupsd_broker_up{" + stopped_broker + "} 1\n"),
            std::string::npos);
}

TEST_F(RoutesTest, MetricsAreCutAtTheirByteBoundWithACommentAndFamiliesStayWhole) {
  create_orders();
  join_and_sync(10000);
  for (int i = 0; i < 2000; ++i) broker_.cluster().create_topic("t" + std::to_string(i), 1);
  const HttpResponse response = call("GET", "/metrics");
  ASSERT_EQ(response.status, 200);
  const std::string& text = response.body;
  EXPECT_LE(text.size(), 65536U + 2048U)
      << "the bound plus the later families' headers and the comment";
  EXPECT_NE(text.find("# kgroupsd: the answer reached --http-max-metrics-bytes (65536 bytes)"),
            std::string::npos);
  // Every family's samples are contiguous: a family's name never reappears after another's.
  std::vector<std::string> seen;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = text.find('\n', at);
    const std::string line = text.substr(at, end - at);
    at = end == std::string::npos ? text.size() : end + 1;
    if (line.empty() || line[0] == '#') continue;
    const std::string name = line.substr(0, line.find_first_of("{ "));
    if (seen.empty() || seen.back() != name) {
      EXPECT_EQ(std::find(seen.begin(), seen.end(), name), seen.end()) << name << " split";
      seen.push_back(name);
    }
  }
}

TEST_F(RoutesTest, EndpointListNamesEveryRoute) {
  const json list = get_json("/v1");
  EXPECT_EQ(list["version"], "v1");
  std::vector<std::string> routes;
  for (const json& endpoint : list["endpoints"]) routes.push_back(endpoint["route"]);
  for (const char* route :
       {"GET /v1/topics", "GET /v1/groups/{id}", "POST /v1/clock/advance", "GET /metrics"}) {
    EXPECT_NE(std::find(routes.begin(), routes.end(), route), routes.end()) << route;
  }
}

}  // namespace
}  // namespace kgroups::broker::http
