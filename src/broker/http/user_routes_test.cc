// SPDX-License-Identifier: Apache-2.0
#include "broker/http/user_routes.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

namespace kgroups::broker::http {
namespace {

using nlohmann::json;

constexpr std::int64_t kMachineBytes = std::int64_t{8} << 30;

class UserRoutes : public ::testing::Test {
 protected:
  explicit UserRoutes(BrokerConfig config = {}) : broker_(std::move(config), kMachineBytes) {
    add_user_routes(router_, broker_);
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

  const CredentialStore& store() { return broker_.access().credentials(); }

  Broker broker_;
  HttpRouter router_;
};

TEST_F(UserRoutes, PutSetsBothMechanismsAt4096ByDefaultAndGetListsThemWithoutSecrets) {
  const HttpResponse created = call("PUT", "/v1/users/alice", R"({"password": "alice-pw"})");
  EXPECT_EQ(created.status, 201) << created.body;
  EXPECT_EQ(json::parse(created.body), json::parse(R"({"name": "alice", "mechanisms": [
                {"mechanism": "SCRAM-SHA-256", "iterations": 4096},
                {"mechanism": "SCRAM-SHA-512", "iterations": 4096}]})"));
  EXPECT_TRUE(store().check_password("alice", "alice-pw"));
  ASSERT_NE(store().find("alice", ScramMechanism::kSha256), nullptr);

  call("PUT", "/v1/users/bob",
       R"({"password": "b", "mechanisms": ["SCRAM-SHA-512"], "iterations": 8192})");
  const HttpResponse listed = call("GET", "/v1/users");
  EXPECT_EQ(listed.status, 200);
  const json users = json::parse(listed.body)["users"];
  ASSERT_EQ(users.size(), 2u);
  EXPECT_EQ(users[0]["name"], "alice");
  EXPECT_EQ(users[1], json::parse(R"({"name": "bob", "mechanisms": [
                {"mechanism": "SCRAM-SHA-512", "iterations": 8192}]})"));
  EXPECT_EQ(listed.body.find("alice-pw"), std::string::npos);
  EXPECT_EQ(listed.body.find("salt"), std::string::npos);
}

TEST_F(UserRoutes, PutAgainChangesThePasswordAndAnswers200) {
  call("PUT", "/v1/users/alice", R"({"password": "old"})");
  const HttpResponse changed =
      call("PUT", "/v1/users/alice", R"({"password": "new", "mechanisms": ["SCRAM-SHA-256"]})");
  EXPECT_EQ(changed.status, 200);
  EXPECT_TRUE(store().check_password("alice", "old"));  // the SCRAM-SHA-512 one is unchanged
  EXPECT_EQ(store().user_count(), 1u);
}

TEST_F(UserRoutes, BadBodiesAnswer400NamingTheFieldAndChangeNothing) {
  const struct {
    const char* body;
    const char* names;
  } cases[] = {
      {"", "JSON object"},
      {"[1]", "JSON object"},
      {"{}", "\"password\""},
      {R"({"password": ""})", "\"password\""},
      {R"({"password": 7})", "\"password\""},
      {R"({"password": "p", "mechanisms": []})", "\"mechanisms\""},
      {R"({"password": "p", "mechanisms": ["PLAIN"]})", R"("mechanisms": "PLAIN")"},
      {R"({"password": "p", "mechanisms": "SCRAM-SHA-256"})", "\"mechanisms\""},
      {R"({"password": "p", "iterations": 4095})", "\"iterations\""},
      {R"({"password": "p", "iterations": 16385})", "\"iterations\""},
      {R"({"password": "p", "iterations": "4096"})", "\"iterations\""},
      {R"({"password": "p", "salt": "x"})", "unknown field \"salt\""},
  };
  for (const auto& bad : cases) {
    const HttpResponse refused = call("PUT", "/v1/users/alice", bad.body);
    EXPECT_EQ(refused.status, 400) << bad.body;
    EXPECT_NE(error_of(refused).find(bad.names), std::string::npos)
        << bad.body << " -> " << error_of(refused);
  }
  const HttpResponse colon = call("PUT", "/v1/users/a:b", R"({"password": "p"})");
  EXPECT_EQ(colon.status, 400);
  EXPECT_NE(error_of(colon).find("':'"), std::string::npos);
  EXPECT_EQ(store().user_count(), 0u);
}

TEST_F(UserRoutes, DeleteRemovesEveryCredentialAnd404sForAnUnknownUser) {
  call("PUT", "/v1/users/alice", R"({"password": "p"})");
  const HttpResponse deleted = call("DELETE", "/v1/users/alice");
  EXPECT_EQ(deleted.status, 200);
  EXPECT_EQ(json::parse(deleted.body)["deleted"]["name"], "alice");
  EXPECT_EQ(json::parse(deleted.body)["deleted"]["mechanisms"].size(), 2u);
  EXPECT_EQ(store().user_count(), 0u);
  EXPECT_FALSE(store().check_password("alice", "p"));
  const HttpResponse unknown = call("DELETE", "/v1/users/alice");
  EXPECT_EQ(unknown.status, 404);
  EXPECT_NE(error_of(unknown).find("GET /v1/users"), std::string::npos);
}

TEST_F(UserRoutes, UsersCountInTheGroupsMemoryShareAndA503SaysWhenItIsFull) {
  const std::size_t before = broker_.groups().held_bytes();
  EXPECT_EQ(call("PUT", "/v1/users/alice", R"({"password": "p"})").status, 201);
  EXPECT_EQ(broker_.groups().held_bytes() - before, store().stored_bytes());
  EXPECT_GT(store().stored_bytes(), CredentialStore::kUserEntryBytes);
  // Fill the share but for a few bytes: the next user is refused whole and nothing changes.
  const auto share = static_cast<std::size_t>(broker_.memory_plan().group_bytes);
  ASSERT_TRUE(broker_.groups().try_hold_bytes(share - broker_.groups().held_bytes() - 10));
  const HttpResponse refused = call("PUT", "/v1/users/bob", R"({"password": "p"})");
  EXPECT_EQ(refused.status, 503);
  EXPECT_NE(error_of(refused).find("--max-memory"), std::string::npos) << refused.body;
  EXPECT_EQ(store().user_names(), (std::vector<std::string_view>{"alice"}));
  // Deleting a user gives its bytes back.
  EXPECT_EQ(call("DELETE", "/v1/users/alice").status, 200);
  EXPECT_EQ(store().stored_bytes(), 0u);
  EXPECT_EQ(call("PUT", "/v1/users/bob", R"({"password": "p"})").status, 201);
}

class BoundedUserRoutes : public UserRoutes {
 protected:
  static BrokerConfig one_user() {
    BrokerConfig config;
    config.max_scram_users = 1;
    return config;
  }
  BoundedUserRoutes() : UserRoutes(one_user()) {}
};

TEST_F(BoundedUserRoutes, ANewUserBeyondTheBoundAnswers429) {
  EXPECT_EQ(call("PUT", "/v1/users/alice", R"({"password": "p"})").status, 201);
  const HttpResponse refused = call("PUT", "/v1/users/bob", R"({"password": "p"})");
  EXPECT_EQ(refused.status, 429);
  EXPECT_NE(error_of(refused).find("1 SASL users"), std::string::npos) << refused.body;
  EXPECT_EQ(call("PUT", "/v1/users/alice", R"({"password": "q"})").status, 200);
  EXPECT_EQ(store().user_names(), (std::vector<std::string_view>{"alice"}));
}

}  // namespace
}  // namespace kgroups::broker::http
