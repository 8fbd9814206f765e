// SPDX-License-Identifier: Apache-2.0
//
// DescribeUserScramCredentials and AlterUserScramCredentials driven as a connection drives them
// (handler_call_for_tests.h): credentials a client derives from a password are upserted, then
// a SCRAM exchange with that password succeeds; describe lists mechanisms and iteration
// counts; deletions; every refusal with Kafka's code and message, leaving the store unchanged;
// and the CLUSTER authorization both need.
#include <gtest/gtest.h>

#include <asio/io_context.hpp>
#include <string>
#include <vector>

#include "broker/handlers/handler_call_for_tests.h"
#include "broker/node/broker.h"
#include "broker/security/base64.h"
#include "broker/security/connection_auth.h"
#include "broker/security/sasl_session.h"
#include "protocol/messages/alter_user_scram_credentials.h"
#include "protocol/messages/describe_user_scram_credentials.h"

namespace kgroups::broker {
namespace {

using protocol::AlterUserScramCredentialsRequest;
using protocol::AlterUserScramCredentialsResponse;
using protocol::DescribeUserScramCredentialsRequest;
using protocol::DescribeUserScramCredentialsResponse;
using protocol::ErrorCode;
using Upsertion = AlterUserScramCredentialsRequest::ScramCredentialUpsertion;
using Deletion = AlterUserScramCredentialsRequest::ScramCredentialDeletion;
using CredentialInfo = DescribeUserScramCredentialsResponse::CredentialInfo;

constexpr std::int64_t kMachineBytes = std::int64_t{8} << 30;
constexpr std::int8_t kSha256 = 1;
constexpr std::int8_t kSha512 = 2;
constexpr std::string_view kSalt = "a-salt-the-client-chose";

// What a client sends to set `password`: SaltedPassword = Hi(password, salt, iterations), as
// Kafka's ScramFormatter computes it on the client side.
struct ClientUpsertion {
  std::string user;
  std::int8_t mechanism = kSha256;
  int iterations = kScramMinIterations;
  std::string salt = std::string(kSalt);
  ScramDigest salted;

  ClientUpsertion(std::string name, std::int8_t code, std::string_view password,
                  int rounds = kScramMinIterations)
      : user(std::move(name)), mechanism(code), iterations(rounds) {
    const ScramMechanism derived =
        code == kSha512 ? ScramMechanism::kSha512 : ScramMechanism::kSha256;
    salted = scram_salted_password(derived, password, scram_bytes(salt), rounds);
  }

  // The request's entry; views this object's bytes.
  [[nodiscard]] Upsertion entry() const {
    return {.name = user,
            .mechanism = mechanism,
            .iterations = iterations,
            .salt = protocol::ByteView(scram_bytes(salt)),
            .salted_password = protocol::ByteView(salted.view())};
  }
};

// The SCRAM client side (RFC 5802 section 3) for one exchange with a SaslSession.
bool scram_login(const CredentialStore& store, ScramMechanism mechanism, std::string_view user,
                 std::string_view password) {
  std::optional<SaslSession> session =
      SaslSession::start(scram_mechanism_name(mechanism), store, {});
  if (!session) return false;
  const std::string bare = "n=" + std::string(user) + ",r=client-nonce-123";
  const SaslReply first = session->step("n,," + bare, 0);
  if (first.outcome != SaslReply::Outcome::kContinue) return false;
  const std::string& server_first = first.auth_bytes;  // r=...,s=...,i=...
  const std::size_t s_at = server_first.find(",s=");
  const std::size_t i_at = server_first.find(",i=");
  const std::string nonce = server_first.substr(2, s_at - 2);
  const std::string salt = *base64_decode(server_first.substr(s_at + 3, i_at - s_at - 3));
  const int iterations = std::stoi(server_first.substr(i_at + 3));
  const ScramDigest salted =
      scram_salted_password(mechanism, password, scram_bytes(salt), iterations);
  const std::string without_proof = "c=biws,r=" + nonce;
  const std::string auth_message = bare + "," + server_first + "," + without_proof;
  const ScramDigest client_key = scram_hmac(mechanism, salted.view(), "Client Key");
  const ScramDigest stored_key = scram_hash(mechanism, client_key.view());
  ScramDigest proof = client_key;
  const ScramDigest signature = scram_hmac(mechanism, stored_key.view(), auth_message);
  for (std::size_t i = 0; i < proof.size; ++i) proof.bytes[i] ^= signature.bytes[i];
  const SaslReply final_reply =
      session->step(without_proof + ",p=" + base64_encode(proof.view()), 0);
  return final_reply.outcome == SaslReply::Outcome::kAuthenticated &&
         final_reply.principal == "User:" + std::string(user);
}

class UserScramCredentialsHandlers : public ::testing::Test {
 protected:
  explicit UserScramCredentialsHandlers(BrokerConfig config = {})
      : broker_(std::move(config), kMachineBytes) {}

  AlterUserScramCredentialsResponse alter(const std::vector<Deletion>& deletions,
                                          const std::vector<ClientUpsertion>& upsertions,
                                          ConnectionAuth* auth = nullptr) {
    AlterUserScramCredentialsRequest request;
    request.deletions = deletions;
    for (const ClientUpsertion& upsertion : upsertions)
      request.upsertions.push_back(upsertion.entry());
    return call_handler<AlterUserScramCredentialsResponse>(broker_, io_, request, 0, 0, auth);
  }

  DescribeUserScramCredentialsResponse describe(std::optional<std::vector<std::string_view>> users,
                                                ConnectionAuth* auth = nullptr) {
    DescribeUserScramCredentialsRequest request;
    if (users) {
      request.users.emplace();
      for (const std::string_view user : *users) request.users->push_back({.name = user});
    }
    return call_handler<DescribeUserScramCredentialsResponse>(broker_, io_, request, 0, 0, auth);
  }

  const CredentialStore& store() { return broker_.access().credentials(); }

  asio::io_context io_;
  Broker broker_;
};

// One result's code and message, for compact expectations.
struct Outcome {
  std::string user;
  ErrorCode error;
  std::optional<std::string> message;
  bool operator==(const Outcome&) const = default;
};
std::vector<Outcome> outcomes(const AlterUserScramCredentialsResponse& response) {
  std::vector<Outcome> out;
  for (const auto& result : response.results) {
    out.push_back({result.user, result.error_code, result.error_message});
  }
  return out;
}
std::ostream& operator<<(std::ostream& os, const Outcome& outcome) {
  return os << outcome.user << ":" << static_cast<int>(outcome.error) << ":"
            << outcome.message.value_or("null");
}

TEST_F(UserScramCredentialsHandlers, UpsertedCredentialsAuthenticateTheirPassword) {
  const AlterUserScramCredentialsResponse response =
      alter({}, {ClientUpsertion("alice", kSha256, "alice-secret"),
                 ClientUpsertion("bob", kSha512, "bob-secret", 8192)});
  EXPECT_EQ(outcomes(response), (std::vector<Outcome>{{"alice", ErrorCode::kNone, std::nullopt},
                                                      {"bob", ErrorCode::kNone, std::nullopt}}));
  EXPECT_TRUE(scram_login(store(), ScramMechanism::kSha256, "alice", "alice-secret"));
  EXPECT_FALSE(scram_login(store(), ScramMechanism::kSha256, "alice", "wrong"));
  EXPECT_FALSE(scram_login(store(), ScramMechanism::kSha512, "alice", "alice-secret"));
  EXPECT_TRUE(scram_login(store(), ScramMechanism::kSha512, "bob", "bob-secret"));
  EXPECT_TRUE(store().check_password("bob", "bob-secret"));  // PLAIN, from the same credential
  EXPECT_EQ(store().find("bob", ScramMechanism::kSha512)->iterations, 8192);
}

TEST_F(UserScramCredentialsHandlers, AnUpsertionReplacesTheUsersCredential) {
  alter({}, {ClientUpsertion("alice", kSha256, "old")});
  alter({}, {ClientUpsertion("alice", kSha256, "new", 5000)});
  EXPECT_TRUE(scram_login(store(), ScramMechanism::kSha256, "alice", "new"));
  EXPECT_FALSE(scram_login(store(), ScramMechanism::kSha256, "alice", "old"));
  EXPECT_EQ(store().user_count(), 1u);
}

TEST_F(UserScramCredentialsHandlers, DescribeListsMechanismsAndIterationsOfEveryUser) {
  alter({}, {ClientUpsertion("bob", kSha512, "b", 8192)});
  alter({}, {ClientUpsertion("bob", kSha256, "b")});
  alter({}, {ClientUpsertion("alice", kSha256, "a")});
  for (const auto& users : {std::optional<std::vector<std::string_view>>{},
                            std::optional<std::vector<std::string_view>>{std::in_place}}) {
    const DescribeUserScramCredentialsResponse all = describe(users);
    EXPECT_EQ(all.error_code, ErrorCode::kNone);
    ASSERT_EQ(all.results.size(), 2u);
    EXPECT_EQ(all.results[0].user, "alice");
    EXPECT_EQ(all.results[0].credential_infos,
              (std::vector<CredentialInfo>{{.mechanism = kSha256, .iterations = 4096}}));
    EXPECT_EQ(all.results[1].user, "bob");
    EXPECT_EQ(all.results[1].error_code, ErrorCode::kNone);
    EXPECT_EQ(all.results[1].error_message, std::nullopt);
    EXPECT_EQ(all.results[1].credential_infos,
              (std::vector<CredentialInfo>{{.mechanism = kSha256, .iterations = 4096},
                                           {.mechanism = kSha512, .iterations = 8192}}));
  }
}

TEST_F(UserScramCredentialsHandlers, DescribeNamesUnknownAndRepeatedUsersPerUser) {
  alter({}, {ClientUpsertion("alice", kSha256, "a")});
  const DescribeUserScramCredentialsResponse response =
      describe(std::vector<std::string_view>{"nobody", "alice", "carol", "carol", "carol"});
  EXPECT_EQ(response.error_code, ErrorCode::kNone);
  ASSERT_EQ(response.results.size(), 3u);
  EXPECT_EQ(response.results[0].user, "nobody");
  EXPECT_EQ(response.results[0].error_code, ErrorCode::kResourceNotFound);
  EXPECT_EQ(response.results[0].error_message,
            "Attempt to describe a user credential that does not exist: nobody");
  EXPECT_TRUE(response.results[0].credential_infos.empty());
  EXPECT_EQ(response.results[1].user, "alice");
  EXPECT_EQ(response.results[1].error_code, ErrorCode::kNone);
  EXPECT_EQ(response.results[1].credential_infos.size(), 1u);
  EXPECT_EQ(response.results[2].user, "carol");
  EXPECT_EQ(response.results[2].error_code, ErrorCode::kDuplicateResource);
  EXPECT_EQ(response.results[2].error_message,
            "Cannot describe SCRAM credentials for the same user twice in a single request: "
            "carol");
}

TEST_F(UserScramCredentialsHandlers, DeletesOneMechanismThenTheUser) {
  alter({}, {ClientUpsertion("alice", kSha256, "a")});
  alter({}, {ClientUpsertion("alice", kSha512, "a")});
  EXPECT_EQ(outcomes(alter({{.name = "alice", .mechanism = kSha512}}, {})),
            (std::vector<Outcome>{{"alice", ErrorCode::kNone, std::nullopt}}));
  EXPECT_EQ(store().find("alice", ScramMechanism::kSha512), nullptr);
  EXPECT_TRUE(scram_login(store(), ScramMechanism::kSha256, "alice", "a"));
  EXPECT_EQ(outcomes(alter({{.name = "alice", .mechanism = kSha512}}, {})),
            (std::vector<Outcome>{{"alice", ErrorCode::kResourceNotFound,
                                   "Attempt to delete a user credential that does not exist"}}));
  alter({{.name = "alice", .mechanism = kSha256}}, {});
  EXPECT_EQ(store().user_count(), 0u);
  EXPECT_EQ(describe(std::vector<std::string_view>{"alice"}).results[0].error_code,
            ErrorCode::kResourceNotFound);
}

TEST_F(UserScramCredentialsHandlers, RefusesBadChangesWithKafkasErrorsAndChangesNothing) {
  const AlterUserScramCredentialsResponse response = alter(
      {{.name = "", .mechanism = kSha256}, {.name = "dave", .mechanism = 3}},
      {ClientUpsertion("erin", 0, "e"), ClientUpsertion("frank", kSha256, "f", 4095),
       ClientUpsertion("gina", kSha512, "g", 16385), ClientUpsertion("has:colon", kSha256, "h")});
  ASSERT_EQ(response.results.size(), 6u);
  const std::vector<Outcome> got = outcomes(response);
  EXPECT_EQ(got[0],
            (Outcome{"", ErrorCode::kUnacceptableCredential, "Username must not be empty"}));
  EXPECT_EQ(got[1],
            (Outcome{"dave", ErrorCode::kUnsupportedSaslMechanism, "Unknown SCRAM mechanism"}));
  EXPECT_EQ(got[2],
            (Outcome{"erin", ErrorCode::kUnsupportedSaslMechanism, "Unknown SCRAM mechanism"}));
  EXPECT_EQ(got[3], (Outcome{"frank", ErrorCode::kUnacceptableCredential, "Too few iterations"}));
  EXPECT_EQ(got[4], (Outcome{"gina", ErrorCode::kUnacceptableCredential, "Too many iterations"}));
  EXPECT_EQ(got[5].error, ErrorCode::kUnacceptableCredential);
  EXPECT_NE(got[5].message->find("':'"), std::string::npos) << got[5];
  EXPECT_EQ(store().user_count(), 0u);
}

TEST_F(UserScramCredentialsHandlers, RefusesASaltedPasswordOfTheWrongSize) {
  ClientUpsertion upsertion("alice", kSha512, "a");
  upsertion.salted.size = 32;  // a SHA-256 digest for SCRAM-SHA-512
  const std::vector<Outcome> got = outcomes(alter({}, {upsertion}));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].error, ErrorCode::kUnacceptableCredential);
  EXPECT_NE(got[0].message->find("needs 64"), std::string::npos) << got[0];
  EXPECT_EQ(store().user_count(), 0u);
}

TEST_F(UserScramCredentialsHandlers, AUserChangedTwiceInOneRequestIsRefusedWhole) {
  alter({}, {ClientUpsertion("alice", kSha256, "old")});
  const AlterUserScramCredentialsResponse response =
      alter({{.name = "alice", .mechanism = kSha256}},
            {ClientUpsertion("alice", kSha512, "new"), ClientUpsertion("bob", kSha256, "b"),
             ClientUpsertion("bob", kSha512, "b"), ClientUpsertion("bob", kSha512, "b")});
  const std::string twice = "A user credential cannot be altered twice in the same request";
  EXPECT_EQ(outcomes(response),
            (std::vector<Outcome>{{"alice", ErrorCode::kDuplicateResource, twice},
                                  {"bob", ErrorCode::kDuplicateResource, twice}}));
  EXPECT_TRUE(scram_login(store(), ScramMechanism::kSha256, "alice", "old"));
  EXPECT_EQ(store().find("alice", ScramMechanism::kSha512), nullptr);
  EXPECT_EQ(store().user_count(), 1u);
}

TEST_F(UserScramCredentialsHandlers, ARefusedFirstChangeKeepsItsRefusal) {
  const std::vector<Outcome> got = outcomes(
      alter({{.name = "alice", .mechanism = kSha256}}, {ClientUpsertion("alice", kSha256, "a")}));
  EXPECT_EQ(got,
            (std::vector<Outcome>{{"alice", ErrorCode::kResourceNotFound,
                                   "Attempt to delete a user credential that does not exist"}}));
  EXPECT_EQ(store().user_count(), 0u);
}

class BoundedUserScramCredentialsHandlers : public UserScramCredentialsHandlers {
 protected:
  static BrokerConfig two_users() {
    BrokerConfig config;
    config.max_scram_users = 2;
    return config;
  }
  BoundedUserScramCredentialsHandlers() : UserScramCredentialsHandlers(two_users()) {}
};

TEST_F(BoundedUserScramCredentialsHandlers, RefusesNewUsersBeyondTheBoundAfterDeletions) {
  alter({}, {ClientUpsertion("u1", kSha256, "p"), ClientUpsertion("u2", kSha256, "p")});
  const std::vector<Outcome> full = outcomes(alter({}, {ClientUpsertion("u3", kSha256, "p")}));
  ASSERT_EQ(full.size(), 1u);
  EXPECT_EQ(full[0].error, ErrorCode::kPolicyViolation);
  EXPECT_NE(full[0].message->find("2 SASL users"), std::string::npos) << full[0];
  EXPECT_EQ(store().find("u3", ScramMechanism::kSha256), nullptr);
  // An existing user may still change, and a deletion in the same request makes room.
  EXPECT_EQ(outcomes(alter({}, {ClientUpsertion("u2", kSha512, "p")}))[0].error, ErrorCode::kNone);
  EXPECT_EQ(outcomes(alter({{.name = "u1", .mechanism = kSha256}},
                           {ClientUpsertion("u3", kSha256, "p")})),
            (std::vector<Outcome>{{"u1", ErrorCode::kNone, std::nullopt},
                                  {"u3", ErrorCode::kNone, std::nullopt}}));
  EXPECT_EQ(store().user_names(), (std::vector<std::string_view>{"u2", "u3"}));
}

class AuthorizedUserScramCredentialsHandlers : public UserScramCredentialsHandlers {
 protected:
  static BrokerConfig with_authorizer() {
    BrokerConfig config;
    config.security.authorizer = true;
    return config;
  }
  AuthorizedUserScramCredentialsHandlers() : UserScramCredentialsHandlers(with_authorizer()) {}

  void allow_on_cluster(std::string principal, AclOperation operation) {
    ASSERT_EQ(broker_.access().acls().create({.resource_type = AclResourceType::kCluster,
                                              .resource_name = std::string(kClusterResourceName),
                                              .pattern_type = AclPatternType::kLiteral,
                                              .principal = std::move(principal),
                                              .host = "*",
                                              .operation = operation,
                                              .permission = AclPermissionType::kAllow}),
              std::nullopt);
  }

  ConnectionAuth alice_{false, "127.0.0.1", "User:alice"};
};

TEST_F(AuthorizedUserScramCredentialsHandlers, AlterWithoutAlterOnTheClusterChangesNothing) {
  allow_on_cluster("User:alice", AclOperation::kDescribe);
  const AlterUserScramCredentialsResponse response = alter(
      {{.name = "bob", .mechanism = kSha256}},
      {ClientUpsertion("carol", kSha256, "c"), ClientUpsertion("carol", kSha512, "c")}, &alice_);
  ASSERT_EQ(response.results.size(), 2u);
  for (const auto& result : response.results) {
    EXPECT_EQ(result.error_code, ErrorCode::kClusterAuthorizationFailed) << result.user;
    EXPECT_NE(result.error_message->find("ALTER on the CLUSTER"), std::string::npos);
  }
  EXPECT_EQ(store().user_count(), 0u);
  allow_on_cluster("User:alice", AclOperation::kAlter);
  EXPECT_EQ(outcomes(alter({}, {ClientUpsertion("carol", kSha256, "c")}, &alice_)),
            (std::vector<Outcome>{{"carol", ErrorCode::kNone, std::nullopt}}));
}

TEST_F(AuthorizedUserScramCredentialsHandlers, DescribeWithoutDescribeOnTheClusterIsRefusedWhole) {
  allow_on_cluster("User:admin", AclOperation::kAlter);  // ALTER implies DESCRIBE
  ConnectionAuth admin(false, "127.0.0.1", "User:admin");
  EXPECT_EQ(outcomes(alter({}, {ClientUpsertion("carol", kSha256, "c")}, &admin))[0].error,
            ErrorCode::kNone);
  EXPECT_EQ(describe(std::nullopt, &admin).results.size(), 1u);
  const DescribeUserScramCredentialsResponse refused = describe(std::nullopt, &alice_);
  EXPECT_EQ(refused.error_code, ErrorCode::kClusterAuthorizationFailed);
  EXPECT_NE(refused.error_message->find("DESCRIBE on the CLUSTER"), std::string::npos);
  EXPECT_TRUE(refused.results.empty());
  allow_on_cluster("User:alice", AclOperation::kDescribe);
  const DescribeUserScramCredentialsResponse allowed = describe(std::nullopt, &alice_);
  EXPECT_EQ(allowed.error_code, ErrorCode::kNone);
  ASSERT_EQ(allowed.results.size(), 1u);
  EXPECT_EQ(allowed.results[0].user, "carol");
}

}  // namespace
}  // namespace kgroups::broker
