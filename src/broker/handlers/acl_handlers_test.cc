// SPDX-License-Identifier: Apache-2.0
//
// DescribeAcls, CreateAcls and DeleteAcls driven as a connection drives them (call_handler):
// SECURITY_DISABLED with the authorizer off; with it on, creations then filters (ANY, MATCH,
// literal, prefixed, by principal), deletions listing what each filter deleted, a principal
// without ALTER or DESCRIBE on the cluster refused with nothing changed, a super user allowed,
// v0 (LITERAL only) against v1+, Kafka's refusals, --max-acls, and the ACLs' bytes charged
// to the groups' share of --max-memory.
#include <gtest/gtest.h>

#include <asio/io_context.hpp>
#include <optional>
#include <string>
#include <vector>

#include "broker/handlers/api_table.h"
#include "broker/handlers/handler_call_for_tests.h"
#include "broker/node/broker.h"
#include "broker/node/three_broker_config_for_tests.h"
#include "broker/security/connection_auth.h"
#include "protocol/messages/create_acls.h"
#include "protocol/messages/delete_acls.h"
#include "protocol/messages/describe_acls.h"

namespace kgroups::broker {
namespace {

using protocol::CreateAclsRequest;
using protocol::CreateAclsResponse;
using protocol::DeleteAclsRequest;
using protocol::DeleteAclsResponse;
using protocol::DescribeAclsRequest;
using protocol::DescribeAclsResponse;
using protocol::ErrorCode;

constexpr std::int8_t kAny = 1;
constexpr std::int8_t kMatch = 2;
constexpr std::int8_t kLiteral = 3;
constexpr std::int8_t kPrefixed = 4;
constexpr std::int8_t kTopic = 2;
constexpr std::int8_t kGroup = 3;
constexpr std::int8_t kCluster = 4;
constexpr std::int8_t kRead = 3;
constexpr std::int8_t kWrite = 4;
constexpr std::int8_t kAlter = 7;
constexpr std::int8_t kAllow = 3;

CreateAclsRequest::AclCreation allow(std::int8_t type, std::string_view name, std::int8_t pattern,
                                     std::string_view principal, std::int8_t operation) {
  return {.resource_type = type,
          .resource_name = name,
          .resource_pattern_type = pattern,
          .principal = principal,
          .host = "*",
          .operation = operation,
          .permission_type = kAllow};
}

DescribeAclsRequest any_filter() {
  DescribeAclsRequest filter;
  filter.resource_type_filter = kAny;
  filter.pattern_type_filter = kAny;
  filter.operation = kAny;
  filter.permission_type = kAny;
  return filter;
}

DeleteAclsRequest::DeleteAclsFilter delete_filter(const DescribeAclsRequest& fields) {
  return {.resource_type_filter = fields.resource_type_filter,
          .resource_name_filter = fields.resource_name_filter,
          .pattern_type_filter = fields.pattern_type_filter,
          .principal_filter = fields.principal_filter,
          .host_filter = fields.host_filter,
          .operation = fields.operation,
          .permission_type = fields.permission_type};
}

// The ACLs of a DescribeAcls answer as "TYPE:PATTERN:name principal op", one per ACL.
std::vector<std::string> listed(const DescribeAclsResponse& response) {
  std::vector<std::string> lines;
  for (const auto& resource : response.resources) {
    for (const auto& acl : resource.acls) {
      lines.push_back(std::to_string(resource.resource_type) + ":" +
                      std::to_string(resource.pattern_type) + ":" + resource.resource_name + " " +
                      acl.principal + " " + std::to_string(acl.operation));
    }
  }
  return lines;
}

BrokerConfig authorizing_config(std::string super_users = "User:admin") {
  BrokerConfig config;
  config.security.authorizer = true;
  config.security.super_users = std::move(super_users);
  return config;
}

class AclHandlers : public ::testing::Test {
 protected:
  explicit AclHandlers(BrokerConfig config = authorizing_config())
      : broker_(std::move(config), testing::kTestMachineBytes) {}

  CreateAclsResponse create(std::vector<CreateAclsRequest::AclCreation> creations,
                            std::int16_t version = 1, ConnectionAuth* who = nullptr) {
    CreateAclsRequest request;
    request.creations = std::move(creations);
    return call_handler<CreateAclsResponse>(broker_, io_, request, version, 0,
                                            who != nullptr ? who : &admin_);
  }
  DescribeAclsResponse describe(const DescribeAclsRequest& filter, std::int16_t version = 1,
                                ConnectionAuth* who = nullptr) {
    return call_handler<DescribeAclsResponse>(broker_, io_, filter, version, 0,
                                              who != nullptr ? who : &admin_);
  }
  DeleteAclsResponse remove(std::vector<DeleteAclsRequest::DeleteAclsFilter> filters,
                            std::int16_t version = 1, ConnectionAuth* who = nullptr) {
    DeleteAclsRequest request;
    request.filters = std::move(filters);
    return call_handler<DeleteAclsResponse>(broker_, io_, request, version, 0,
                                            who != nullptr ? who : &admin_);
  }
  // Four ACLs: alice reads topic "orders" and group "g" and writes topics prefixed "ord"; bob
  // reads every topic.
  void create_four() {
    const CreateAclsResponse response =
        create({allow(kTopic, "orders", kLiteral, "User:alice", kRead),
                allow(kTopic, "ord", kPrefixed, "User:alice", kWrite),
                allow(kTopic, "*", kLiteral, "User:bob", kRead),
                allow(kGroup, "g", kLiteral, "User:alice", kRead)});
    ASSERT_EQ(response.results.size(), 4U);
    for (const auto& result : response.results) ASSERT_EQ(result.error_code, ErrorCode::kNone);
  }

  Broker broker_;
  asio::io_context io_;
  ConnectionAuth admin_{false, "127.0.0.1", "User:admin"};  // a super user
  ConnectionAuth alice_{false, "127.0.0.1", "User:alice"};
};

TEST_F(AclHandlers, TheTableServesVersionsZeroToThree) {
  for (const auto key : {protocol::ApiKey::kDescribeAcls, protocol::ApiKey::kCreateAcls,
                         protocol::ApiKey::kDeleteAcls}) {
    const ApiEntry* entry = find_api(key);
    ASSERT_NE(entry, nullptr);
    EXPECT_EQ(entry->min_version, 0);
    EXPECT_EQ(entry->max_version, 3);
  }
}

class AclHandlersWithoutAuthorizer : public AclHandlers {
 protected:
  AclHandlersWithoutAuthorizer() : AclHandlers(BrokerConfig{}) {}
};

TEST_F(AclHandlersWithoutAuthorizer, EachAnswersSecurityDisabled) {
  for (std::int16_t version = 0; version <= 3; ++version) {
    SCOPED_TRACE(version);
    const DescribeAclsResponse described = describe(any_filter(), version);
    EXPECT_EQ(described.error_code, ErrorCode::kSecurityDisabled);
    EXPECT_EQ(described.error_message, "No Authorizer is configured on the broker");

    const CreateAclsResponse created = create({allow(kTopic, "t", kLiteral, "User:a", kRead),
                                               allow(kTopic, "u", kLiteral, "User:a", kRead)},
                                              version);
    ASSERT_EQ(created.results.size(), 2U);
    for (const auto& result : created.results) {
      EXPECT_EQ(result.error_code, ErrorCode::kSecurityDisabled);
      EXPECT_EQ(result.error_message, "No Authorizer is configured.");
    }
    const DeleteAclsResponse deleted = remove({delete_filter(any_filter())}, version);
    ASSERT_EQ(deleted.filter_results.size(), 1U);
    EXPECT_EQ(deleted.filter_results[0].error_code, ErrorCode::kSecurityDisabled);
    EXPECT_EQ(deleted.filter_results[0].error_message, "No Authorizer is configured.");
  }
  EXPECT_EQ(broker_.access().acls().size(), 0U);
}

TEST_F(AclHandlers, CreateThenDescribeWithFilters) {
  create_four();
  EXPECT_EQ(listed(describe(any_filter())),
            (std::vector<std::string>{"2:3:* User:bob 3", "2:4:ord User:alice 4",
                                      "2:3:orders User:alice 3", "3:3:g User:alice 3"}));

  DescribeAclsRequest match_orders = any_filter();
  match_orders.resource_type_filter = kTopic;
  match_orders.resource_name_filter = "orders";
  match_orders.pattern_type_filter = kMatch;
  EXPECT_EQ(listed(describe(match_orders)),
            (std::vector<std::string>{"2:3:* User:bob 3", "2:4:ord User:alice 4",
                                      "2:3:orders User:alice 3"}));

  DescribeAclsRequest literal_orders = match_orders;
  literal_orders.pattern_type_filter = kLiteral;
  EXPECT_EQ(listed(describe(literal_orders)),
            (std::vector<std::string>{"2:3:orders User:alice 3"}));

  DescribeAclsRequest prefixed = any_filter();
  prefixed.pattern_type_filter = kPrefixed;
  EXPECT_EQ(listed(describe(prefixed)), (std::vector<std::string>{"2:4:ord User:alice 4"}));

  DescribeAclsRequest bobs = any_filter();
  bobs.principal_filter = "User:bob";
  EXPECT_EQ(listed(describe(bobs)), (std::vector<std::string>{"2:3:* User:bob 3"}));
}

TEST_F(AclHandlers, DescribeGroupsTheAclsOfOnePattern) {
  ASSERT_EQ(create({allow(kTopic, "t", kLiteral, "User:a", kRead),
                    allow(kTopic, "t", kLiteral, "User:b", kWrite),
                    allow(kTopic, "t", kLiteral, "User:a", kRead)})  // already there: accepted
                .results[2]
                .error_code,
            ErrorCode::kNone);
  const DescribeAclsResponse response = describe(any_filter(), 3);
  EXPECT_EQ(response.error_code, ErrorCode::kNone);
  ASSERT_EQ(response.resources.size(), 1U);
  EXPECT_EQ(response.resources[0].acls.size(), 2U);
}

TEST_F(AclHandlers, DeleteReturnsWhatEachFilterDeleted) {
  create_four();
  DescribeAclsRequest prefixed = any_filter();
  prefixed.pattern_type_filter = kPrefixed;
  DescribeAclsRequest groups = any_filter();
  groups.resource_type_filter = kGroup;
  const DeleteAclsResponse response = remove({delete_filter(prefixed), delete_filter(groups)});
  ASSERT_EQ(response.filter_results.size(), 2U);
  ASSERT_EQ(response.filter_results[0].matching_acls.size(), 1U);
  const auto& deleted = response.filter_results[0].matching_acls[0];
  EXPECT_EQ(deleted.error_code, ErrorCode::kNone);
  EXPECT_EQ(deleted.resource_name, "ord");
  EXPECT_EQ(deleted.pattern_type, kPrefixed);
  EXPECT_EQ(deleted.principal, "User:alice");
  EXPECT_EQ(deleted.operation, kWrite);
  ASSERT_EQ(response.filter_results[1].matching_acls.size(), 1U);
  EXPECT_EQ(response.filter_results[1].matching_acls[0].resource_name, "g");
  EXPECT_EQ(listed(describe(any_filter())),
            (std::vector<std::string>{"2:3:* User:bob 3", "2:3:orders User:alice 3"}));
}

TEST_F(AclHandlers, APrincipalWithoutAlterOnTheClusterChangesNothing) {
  create_four();
  const std::size_t bytes = broker_.access().acls().stored_bytes();
  const CreateAclsResponse created =
      create({allow(kTopic, "x", kLiteral, "User:alice", kRead)}, 1, &alice_);
  ASSERT_EQ(created.results.size(), 1U);
  EXPECT_EQ(created.results[0].error_code, ErrorCode::kClusterAuthorizationFailed);
  EXPECT_NE(created.results[0].error_message->find("User:alice may not send CreateAcls"),
            std::string::npos)
      << *created.results[0].error_message;

  const DeleteAclsResponse deleted = remove({delete_filter(any_filter())}, 1, &alice_);
  EXPECT_EQ(deleted.filter_results[0].error_code, ErrorCode::kClusterAuthorizationFailed);
  EXPECT_TRUE(deleted.filter_results[0].matching_acls.empty());

  const DescribeAclsResponse described = describe(any_filter(), 1, &alice_);
  EXPECT_EQ(described.error_code, ErrorCode::kClusterAuthorizationFailed);
  EXPECT_TRUE(described.resources.empty());
  EXPECT_EQ(broker_.access().acls().size(), 4U);
  EXPECT_EQ(broker_.access().acls().stored_bytes(), bytes);

  // ALTER on the cluster lets her change ACLs, and implies DESCRIBE.
  ASSERT_EQ(create({allow(kCluster, "kafka-cluster", kLiteral, "User:alice", kAlter)})
                .results[0]
                .error_code,
            ErrorCode::kNone);
  EXPECT_EQ(
      create({allow(kTopic, "x", kLiteral, "User:alice", kRead)}, 1, &alice_).results[0].error_code,
      ErrorCode::kNone);
  EXPECT_EQ(listed(describe(any_filter(), 1, &alice_)).size(), 6U);
}

TEST_F(AclHandlers, AnonymousIsRefusedUnlessASuperUser) {
  ConnectionAuth anonymous{false, "127.0.0.1"};
  EXPECT_EQ(describe(any_filter(), 1, &anonymous).error_code,
            ErrorCode::kClusterAuthorizationFailed);
}

class AclHandlersAnonymousSuperUser : public AclHandlers {
 protected:
  AclHandlersAnonymousSuperUser() : AclHandlers(authorizing_config("User:ANONYMOUS")) {}
};

TEST_F(AclHandlersAnonymousSuperUser, ASuperUserIsAllowedWithoutAnyAcl) {
  ConnectionAuth anonymous{false, "127.0.0.1"};
  EXPECT_EQ(
      create({allow(kTopic, "t", kLiteral, "User:a", kRead)}, 1, &anonymous).results[0].error_code,
      ErrorCode::kNone);
  EXPECT_EQ(listed(describe(any_filter(), 1, &anonymous)).size(), 1U);
}

TEST_F(AclHandlers, V0MeansLiteralPatterns) {
  // A v0 creation has no pattern type: LITERAL.
  CreateAclsRequest::AclCreation prefixed_on_v1 = allow(kTopic, "ord", kPrefixed, "User:a", kRead);
  ASSERT_EQ(create({allow(kTopic, "orders", kPrefixed, "User:a", kRead)}, 0).results[0].error_code,
            ErrorCode::kNone);
  ASSERT_EQ(create({prefixed_on_v1}, 1).results[0].error_code, ErrorCode::kNone);
  EXPECT_EQ(listed(describe(any_filter(), 1)),
            (std::vector<std::string>{"2:4:ord User:a 3", "2:3:orders User:a 3"}));

  // A v0 filter is LITERAL: the answer holds no other pattern type.
  const DescribeAclsResponse v0 = describe(any_filter(), 0);
  EXPECT_EQ(v0.error_code, ErrorCode::kNone);
  EXPECT_EQ(listed(v0), (std::vector<std::string>{"2:3:orders User:a 3"}));

  const DeleteAclsResponse deleted = remove({delete_filter(any_filter())}, 0);
  ASSERT_EQ(deleted.filter_results[0].matching_acls.size(), 1U);
  EXPECT_EQ(deleted.filter_results[0].matching_acls[0].resource_name, "orders");
  EXPECT_EQ(listed(describe(any_filter(), 2)), (std::vector<std::string>{"2:4:ord User:a 3"}));
}

TEST_F(AclHandlers, KafkasRefusalsPerCreationAndFilter) {
  const CreateAclsResponse created = create({allow(kTopic, "", kLiteral, "User:a", kRead),
                                             allow(kCluster, "other", kLiteral, "User:a", kAlter),
                                             allow(kTopic, "t", kLiteral, "alice", kRead),
                                             allow(kTopic, "t", kAny, "User:a", kRead),
                                             allow(kTopic, "t", kLiteral, "User:a", kRead)});
  ASSERT_EQ(created.results.size(), 5U);
  EXPECT_EQ(created.results[0].error_code, ErrorCode::kInvalidRequest);
  EXPECT_EQ(created.results[0].error_message, "Invalid empty resource name");
  EXPECT_EQ(created.results[1].error_message,
            "The only valid name for the CLUSTER resource is kafka-cluster");
  EXPECT_EQ(created.results[2].error_code, ErrorCode::kInvalidRequest);
  EXPECT_EQ(created.results[3].error_message, "Invalid patternType ANY");
  EXPECT_EQ(created.results[4].error_code, ErrorCode::kNone);
  EXPECT_EQ(broker_.access().acls().size(), 1U);

  DescribeAclsRequest unknown = any_filter();
  unknown.operation = 0;
  EXPECT_EQ(describe(unknown).error_code, ErrorCode::kInvalidRequest);
  const DeleteAclsResponse deleted = remove({delete_filter(unknown)});
  EXPECT_EQ(deleted.filter_results[0].error_code, ErrorCode::kInvalidRequest);
  EXPECT_EQ(deleted.filter_results[0].error_message, "Unknown entryFilter.");
  EXPECT_EQ(broker_.access().acls().size(), 1U);
}

TEST_F(AclHandlers, AclBytesCountInTheGroupsShareOfMemory) {
  const std::size_t before = broker_.groups().held_bytes();
  create_four();
  const std::size_t stored = broker_.access().acls().stored_bytes();
  EXPECT_GT(stored, 0U);
  EXPECT_EQ(broker_.groups().held_bytes(), before + stored);
  (void)remove({delete_filter(any_filter())});
  EXPECT_EQ(broker_.groups().held_bytes(), before);
}

class AclHandlersWithTwoAcls : public AclHandlers {
 protected:
  AclHandlersWithTwoAcls() : AclHandlers(two_acls()) {}
  static BrokerConfig two_acls() {
    BrokerConfig config = authorizing_config();
    config.max_acls = 2;
    return config;
  }
};

TEST_F(AclHandlersWithTwoAcls, PastMaxAclsIsAPolicyViolationNamingTheFlag) {
  const CreateAclsResponse created = create({allow(kTopic, "a", kLiteral, "User:a", kRead),
                                             allow(kTopic, "b", kLiteral, "User:a", kRead),
                                             allow(kTopic, "c", kLiteral, "User:a", kRead)});
  ASSERT_EQ(created.results.size(), 3U);
  EXPECT_EQ(created.results[1].error_code, ErrorCode::kNone);
  EXPECT_EQ(created.results[2].error_code, ErrorCode::kPolicyViolation);
  EXPECT_NE(created.results[2].error_message->find("raise --max-acls"), std::string::npos)
      << *created.results[2].error_message;

  // Two filters matching both would list 4: the second is refused and deletes nothing.
  const DeleteAclsResponse deleted =
      remove({delete_filter(any_filter()), delete_filter(any_filter())});
  EXPECT_EQ(deleted.filter_results[0].matching_acls.size(), 2U);
  EXPECT_EQ(deleted.filter_results[1].error_code, ErrorCode::kPolicyViolation);
  EXPECT_EQ(broker_.access().acls().size(), 0U);
}

}  // namespace
}  // namespace kgroups::broker
