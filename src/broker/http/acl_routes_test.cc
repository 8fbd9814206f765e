// SPDX-License-Identifier: Apache-2.0
#include "broker/http/acl_routes.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

namespace kgroups::broker::http {
namespace {

using nlohmann::json;

constexpr std::int64_t kMachineBytes = std::int64_t{8} << 30;

constexpr const char* kAliceReadsOrders =
    R"({"resource_type": "TOPIC", "resource_name": "orders", "pattern_type": "LITERAL",
        "principal": "User:alice", "host": "*", "operation": "READ", "permission": "ALLOW"})";

class AclRoutes : public ::testing::Test {
 protected:
  explicit AclRoutes(BrokerConfig config = {}) : broker_(std::move(config), kMachineBytes) {
    add_acl_routes(router_, broker_);
  }

  HttpResponse call(std::string method, std::string path, std::string body = {}) {
    HttpRequest request;
    request.method = std::move(method);
    request.path = std::move(path);
    request.body = std::move(body);
    return router_.dispatch(request).response;
  }

  std::string error_of(const HttpResponse& response) {
    return json::parse(response.body)["error"]["message"].get<std::string>();
  }

  const AclStore& acls() { return broker_.access().acls(); }

  Broker broker_;
  HttpRouter router_;
};

TEST_F(AclRoutes, PostCreatesOneAclAndGetListsItWithKafkasNames) {
  const HttpResponse created = call("POST", "/v1/acls", kAliceReadsOrders);
  EXPECT_EQ(created.status, 201) << created.body;
  EXPECT_EQ(json::parse(created.body)["created"], json::array({json::parse(kAliceReadsOrders)}));
  ASSERT_EQ(acls().size(), 1u);
  const HttpResponse listed = call("GET", "/v1/acls");
  EXPECT_EQ(listed.status, 200);
  EXPECT_EQ(json::parse(listed.body),
            json({{"acls", json::array({json::parse(kAliceReadsOrders)})}}));
  // Keys in the order docs/HTTP-API.md shows them.
  EXPECT_EQ(listed.body.find("{\"resource_type\":\"TOPIC\",\"resource_name\":\"orders\""), 9u)
      << listed.body;
}

TEST_F(AclRoutes, PostTakesAListWithDefaultsAndAnyCase) {
  const HttpResponse created = call("POST", "/v1/acls", R"([
      {"resource_type": "group", "resource_name": "billing-", "pattern_type": "prefixed",
       "principal": "User:bob", "operation": "read", "permission": "allow"},
      {"resource_type": "CLUSTER", "resource_name": "kafka-cluster", "principal": "User:ops",
       "operation": "DESCRIBE_CONFIGS", "permission": "DENY", "host": "10.0.0.1"}])");
  EXPECT_EQ(created.status, 201) << created.body;
  const json listed = json::parse(call("GET", "/v1/acls").body)["acls"];
  ASSERT_EQ(listed.size(), 2u);
  const json group = listed[0]["resource_type"] == "GROUP" ? listed[0] : listed[1];
  EXPECT_EQ(group["pattern_type"], "PREFIXED");
  EXPECT_EQ(group["host"], "*");
  EXPECT_EQ(group["operation"], "READ");
  const json cluster = listed[0]["resource_type"] == "CLUSTER" ? listed[0] : listed[1];
  EXPECT_EQ(cluster["pattern_type"], "LITERAL");
  EXPECT_EQ(cluster["operation"], "DESCRIBE_CONFIGS");
  EXPECT_EQ(cluster["permission"], "DENY");
}

TEST_F(AclRoutes, BadAclsAnswer400NamingTheFieldAndCreateNothing) {
  const std::string good = kAliceReadsOrders;
  const struct {
    std::string body;
    const char* names;
  } cases[] = {
      {"", "not valid JSON"},
      {"[]", "empty"},
      {"7", "JSON object"},
      {R"({"resource_type": "TOPIC"})", "\"resource_name\" is missing"},
      {R"({"resource_type": "TOPIK", "resource_name": "t", "principal": "User:a",
           "operation": "READ", "permission": "ALLOW"})",
       R"("resource_type": unknown value "TOPIK"; use one of TOPIC,)"},
      {R"({"resource_type": "ANY", "resource_name": "t", "principal": "User:a",
           "operation": "READ", "permission": "ALLOW"})",
       "\"resource_type\""},
      {R"({"resource_type": "TOPIC", "resource_name": "t", "principal": "User:a",
           "operation": "READ", "permission": "ALLOW", "pattern_type": "MATCH"})",
       "\"pattern_type\""},
      {R"({"resource_type": "TOPIC", "resource_name": "t", "principal": "User:a",
           "operation": "FLY", "permission": "ALLOW"})",
       "\"operation\""},
      {R"({"resource_type": "TOPIC", "resource_name": "t", "principal": "User:a",
           "operation": "READ", "permission": "MAYBE"})",
       "\"permission\""},
      {R"({"resource_type": "TOPIC", "resource_name": 5, "principal": "User:a",
           "operation": "READ", "permission": "ALLOW"})",
       "\"resource_name\" must be a string"},
      {R"({"resource_type": "TOPIC", "resource_name": "t", "principal": "User:a",
           "operation": "READ", "permission": "ALLOW", "colour": "red"})",
       "unknown field \"colour\""},
      // acl_binding_refusal's (Kafka's) checks, with the position in a list.
      {"[" + good + R"(, {"resource_type": "CLUSTER", "resource_name": "other",
           "principal": "User:a", "operation": "ALTER", "permission": "ALLOW"}])",
       "ACL 2: "},
      {R"({"resource_type": "TOPIC", "resource_name": "t", "principal": "alice",
           "operation": "READ", "permission": "ALLOW"})",
       "alice"},
  };
  for (const auto& bad : cases) {
    const HttpResponse refused = call("POST", "/v1/acls", bad.body);
    EXPECT_EQ(refused.status, 400) << bad.body;
    EXPECT_NE(error_of(refused).find(bad.names), std::string::npos)
        << bad.body << " -> " << error_of(refused);
  }
  EXPECT_EQ(acls().size(), 0u);
}

TEST_F(AclRoutes, DeleteAnswersWhatTheFilterMatched) {
  call("POST", "/v1/acls", R"([
      {"resource_type": "TOPIC", "resource_name": "orders", "principal": "User:alice",
       "operation": "READ", "permission": "ALLOW"},
      {"resource_type": "TOPIC", "resource_name": "orders", "principal": "User:bob",
       "operation": "WRITE", "permission": "ALLOW"},
      {"resource_type": "GROUP", "resource_name": "g", "principal": "User:alice",
       "operation": "READ", "permission": "ALLOW"}])");
  const HttpResponse deleted =
      call("DELETE", "/v1/acls", R"({"principal": "User:alice", "resource_type": "topic"})");
  EXPECT_EQ(deleted.status, 200) << deleted.body;
  EXPECT_EQ(json::parse(deleted.body)["deleted"], json::array({json::parse(kAliceReadsOrders)}));
  EXPECT_EQ(acls().size(), 2u);
  const HttpResponse none = call("DELETE", "/v1/acls", R"({"principal": "User:nobody"})");
  EXPECT_EQ(json::parse(none.body)["deleted"], json::array());
  // MATCH: every ACL that applies to the named resource.
  const HttpResponse matched =
      call("DELETE", "/v1/acls",
           R"({"resource_type": "GROUP", "resource_name": "g", "pattern_type": "MATCH"})");
  EXPECT_EQ(json::parse(matched.body)["deleted"].size(), 1u);
  EXPECT_EQ(json::parse(call("DELETE", "/v1/acls", "{}").body)["deleted"].size(), 1u);
  EXPECT_EQ(acls().size(), 0u);
}

TEST_F(AclRoutes, DeleteRefusesABadFilterAndDeletesNothing) {
  call("POST", "/v1/acls", kAliceReadsOrders);
  for (const char* body :
       {"", "[]", R"({"operation": "FLY"})", R"({"host": 1})", R"({"principle": "User:alice"})"}) {
    const HttpResponse refused = call("DELETE", "/v1/acls", body);
    EXPECT_EQ(refused.status, 400) << body;
  }
  EXPECT_NE(error_of(call("DELETE", "/v1/acls", R"({"operation": "FLY"})")).find("\"operation\""),
            std::string::npos);
  EXPECT_EQ(acls().size(), 1u);
}

class BoundedAclRoutes : public AclRoutes {
 protected:
  static BrokerConfig two_acls() {
    BrokerConfig config;
    config.max_acls = 2;
    return config;
  }
  BoundedAclRoutes() : AclRoutes(two_acls()) {}
};

TEST_F(BoundedAclRoutes, AListBeyondTheBoundAnswers429AndCreatesNone) {
  EXPECT_EQ(call("POST", "/v1/acls", kAliceReadsOrders).status, 201);
  const HttpResponse refused = call("POST", "/v1/acls", R"([
      {"resource_type": "TOPIC", "resource_name": "a", "principal": "User:x",
       "operation": "READ", "permission": "ALLOW"},
      {"resource_type": "TOPIC", "resource_name": "b", "principal": "User:x",
       "operation": "READ", "permission": "ALLOW"}])");
  EXPECT_EQ(refused.status, 429);
  EXPECT_NE(error_of(refused).find("nothing was created"), std::string::npos);
  EXPECT_EQ(acls().size(), 1u);
  // An ACL already held does not count against the bound.
  EXPECT_EQ(call("POST", "/v1/acls", "[" + std::string(kAliceReadsOrders) + R"(,
      {"resource_type": "TOPIC", "resource_name": "a", "principal": "User:x",
       "operation": "READ", "permission": "ALLOW"}])")
                .status,
            201);
  EXPECT_EQ(acls().size(), 2u);
}

}  // namespace
}  // namespace kgroups::broker::http
