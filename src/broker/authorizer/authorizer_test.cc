// SPDX-License-Identifier: Apache-2.0
#include "broker/authorizer/authorizer.h"

#include <gtest/gtest.h>

#include <string>

namespace kgroups::broker {
namespace {

using Rule = AuthorizationDecision::Rule;

struct AclSpec {
  std::string name = "orders";
  AclPatternType pattern = AclPatternType::kLiteral;
  std::string principal = "User:alice";
  std::string host = "*";
  AclOperation operation = AclOperation::kRead;
  AclPermissionType permission = AclPermissionType::kAllow;
  AclResourceType type = AclResourceType::kTopic;
};

class AuthorizerTest : public ::testing::Test {
 protected:
  void add(const AclSpec& spec) {
    const AclBinding binding{spec.type, spec.name,      spec.pattern,   spec.principal,
                             spec.host, spec.operation, spec.permission};
    ASSERT_EQ(store_.create(binding), std::nullopt) << describe_acl(binding);
  }

  AuthorizationDecision decide(AclOperation operation, std::string_view topic = "orders",
                               std::string_view principal = "User:alice",
                               std::string_view host = "10.0.0.1") const {
    const Authorizer authorizer(store_, config_);
    return authorizer.authorize(
        AclAction{principal, host, operation, AclResourceType::kTopic, topic});
  }

  bool allowed(AclOperation operation, std::string_view topic = "orders",
               std::string_view principal = "User:alice",
               std::string_view host = "10.0.0.1") const {
    return decide(operation, topic, principal, host).allowed;
  }

  AclStore store_;
  AuthorizerConfig config_;
};

TEST_F(AuthorizerTest, AnAllowAclAllowsItsOperationOnly) {
  add({});
  const AuthorizationDecision decision = decide(AclOperation::kRead);
  EXPECT_TRUE(decision.allowed);
  EXPECT_EQ(decision.rule, Rule::kAllowAcl);
  ASSERT_NE(decision.acl, nullptr);
  EXPECT_EQ(decision.acl->operation, AclOperation::kRead);
  EXPECT_FALSE(allowed(AclOperation::kWrite));
  EXPECT_EQ(decide(AclOperation::kWrite).rule, Rule::kNoAllowingAcl);
}

TEST_F(AuthorizerTest, ADenyWinsOverAnyAllow) {
  add({.operation = AclOperation::kAll});
  add({.name = "ord", .pattern = AclPatternType::kPrefixed});
  add({.principal = "User:*", .permission = AclPermissionType::kDeny});
  const AuthorizationDecision decision = decide(AclOperation::kRead);
  EXPECT_FALSE(decision.allowed);
  EXPECT_EQ(decision.rule, Rule::kDenyAcl);
  EXPECT_EQ(decision.reason(), "denied by (TOPIC:LITERAL:orders, User:* from *, READ, DENY)");
  EXPECT_TRUE(allowed(AclOperation::kWrite));  // the deny names READ only
}

TEST_F(AuthorizerTest, ADenyOnAPrefixWinsOverALiteralAllow) {
  add({});
  add({.name = "or", .pattern = AclPatternType::kPrefixed, .permission = AclPermissionType::kDeny});
  EXPECT_FALSE(allowed(AclOperation::kRead));
}

TEST_F(AuthorizerTest, SuperUsersAreAlwaysAllowed) {
  config_.super_users = {"User:admin"};
  add({.name = "*",
       .principal = "User:*",
       .operation = AclOperation::kAll,
       .permission = AclPermissionType::kDeny});
  const AuthorizationDecision decision = decide(AclOperation::kAlter, "orders", "User:admin");
  EXPECT_TRUE(decision.allowed);
  EXPECT_EQ(decision.rule, Rule::kSuperUser);
  EXPECT_FALSE(allowed(AclOperation::kAlter, "orders", "User:alice"));
}

TEST_F(AuthorizerTest, SuperUserIsTheWholePrincipal) {
  config_.super_users = {"User:admin"};
  EXPECT_FALSE(decide(AclOperation::kRead, "orders", "Group:admin").rule == Rule::kSuperUser);
}

TEST_F(AuthorizerTest, WildcardPrincipalMatchesEveryone) {
  add({.principal = "User:*"});
  EXPECT_TRUE(allowed(AclOperation::kRead, "orders", "User:bob"));
  EXPECT_TRUE(allowed(AclOperation::kRead, "orders", "User:carol"));
}

TEST_F(AuthorizerTest, OtherPrincipalsDoNotMatch) {
  add({.principal = "User:bob"});
  EXPECT_FALSE(allowed(AclOperation::kRead, "orders", "User:alice"));
  EXPECT_EQ(decide(AclOperation::kRead, "orders", "User:alice").rule, Rule::kNoAllowingAcl);
}

TEST_F(AuthorizerTest, HostMustBeEqualOrWildcard) {
  add({.host = "10.0.0.1"});
  EXPECT_TRUE(allowed(AclOperation::kRead, "orders", "User:alice", "10.0.0.1"));
  EXPECT_FALSE(allowed(AclOperation::kRead, "orders", "User:alice", "10.0.0.2"));
  add({.host = "*", .operation = AclOperation::kWrite});
  EXPECT_TRUE(allowed(AclOperation::kWrite, "orders", "User:alice", "10.0.0.2"));
}

TEST_F(AuthorizerTest, LiteralAclAppliesToItsNameOnly) {
  add({.name = "ord"});
  EXPECT_FALSE(allowed(AclOperation::kRead, "orders"));
  EXPECT_TRUE(allowed(AclOperation::kRead, "ord"));
}

TEST_F(AuthorizerTest, PrefixedAclAppliesToNamesItPrefixes) {
  add({.name = "ord", .pattern = AclPatternType::kPrefixed});
  EXPECT_TRUE(allowed(AclOperation::kRead, "orders"));
  EXPECT_TRUE(allowed(AclOperation::kRead, "ord"));
  EXPECT_FALSE(allowed(AclOperation::kRead, "or"));
  EXPECT_FALSE(allowed(AclOperation::kRead, "payments"));
}

TEST_F(AuthorizerTest, LiteralWildcardNameAppliesToEveryResource) {
  add({.name = "*"});
  EXPECT_TRUE(allowed(AclOperation::kRead, "anything"));
}

TEST_F(AuthorizerTest, PrefixedStarIsNotAWildcard) {
  add({.name = "*", .pattern = AclPatternType::kPrefixed});
  EXPECT_FALSE(allowed(AclOperation::kRead, "orders"));
  EXPECT_TRUE(allowed(AclOperation::kRead, "*orders"));
}

TEST_F(AuthorizerTest, AclsOfOtherResourceTypesDoNotApply) {
  add({.type = AclResourceType::kGroup});
  config_.allow_everyone_if_no_acl_found = true;
  EXPECT_EQ(decide(AclOperation::kRead).rule, Rule::kNoAclForResource);
}

TEST_F(AuthorizerTest, AllAllowsEveryOperation) {
  add({.operation = AclOperation::kAll});
  for (AclOperation operation :
       {AclOperation::kRead, AclOperation::kWrite, AclOperation::kDescribe,
        AclOperation::kAlterConfigs, AclOperation::kDelete, AclOperation::kCreate}) {
    EXPECT_TRUE(allowed(operation)) << acl_name(operation);
  }
}

TEST_F(AuthorizerTest, DenyAllDeniesEveryOperation) {
  add({.operation = AclOperation::kAll});
  add({.principal = "User:alice",
       .operation = AclOperation::kAll,
       .permission = AclPermissionType::kDeny});
  EXPECT_FALSE(allowed(AclOperation::kDescribe));
  EXPECT_FALSE(allowed(AclOperation::kWrite));
}

TEST_F(AuthorizerTest, ReadWriteDeleteAlterAllowDescribe) {
  for (AclOperation operation :
       {AclOperation::kRead, AclOperation::kWrite, AclOperation::kDelete, AclOperation::kAlter}) {
    const std::string topic = "topic-" + std::string(acl_name(operation));
    add({.name = topic, .operation = operation});
    EXPECT_TRUE(allowed(AclOperation::kDescribe, topic)) << acl_name(operation);
  }
}

TEST_F(AuthorizerTest, OtherOperationsDoNotAllowDescribe) {
  add({.operation = AclOperation::kCreate});
  add({.operation = AclOperation::kAlterConfigs});
  add({.operation = AclOperation::kDescribeConfigs});
  EXPECT_FALSE(allowed(AclOperation::kDescribe));
}

TEST_F(AuthorizerTest, DescribeDoesNotAllowRead) {
  add({.operation = AclOperation::kDescribe});
  EXPECT_FALSE(allowed(AclOperation::kRead));
}

TEST_F(AuthorizerTest, AlterConfigsAllowsDescribeConfigs) {
  add({.operation = AclOperation::kAlterConfigs});
  EXPECT_TRUE(allowed(AclOperation::kDescribeConfigs));
  EXPECT_FALSE(allowed(AclOperation::kDescribe));
}

TEST_F(AuthorizerTest, ADenyOfReadDoesNotDenyDescribe) {
  add({.operation = AclOperation::kDescribe});
  add({.operation = AclOperation::kRead, .permission = AclPermissionType::kDeny});
  EXPECT_TRUE(allowed(AclOperation::kDescribe));
  EXPECT_FALSE(allowed(AclOperation::kRead));
}

TEST_F(AuthorizerTest, ADenyOfAlterConfigsDoesNotDenyDescribeConfigs) {
  add({.operation = AclOperation::kDescribeConfigs});
  add({.operation = AclOperation::kAlterConfigs, .permission = AclPermissionType::kDeny});
  EXPECT_TRUE(allowed(AclOperation::kDescribeConfigs));
}

TEST_F(AuthorizerTest, NoAclForTheResourceDeniesByDefault) {
  add({.name = "payments"});
  const AuthorizationDecision decision = decide(AclOperation::kRead, "orders");
  EXPECT_FALSE(decision.allowed);
  EXPECT_EQ(decision.rule, Rule::kNoAclForResource);
  EXPECT_EQ(decision.reason(),
            "denied: no ACL for the resource (allow.everyone.if.no.acl.found=false)");
}

TEST_F(AuthorizerTest, NoAclForTheResourceAllowsWhenConfigured) {
  config_.allow_everyone_if_no_acl_found = true;
  add({.name = "payments"});
  const AuthorizationDecision decision = decide(AclOperation::kRead, "orders");
  EXPECT_TRUE(decision.allowed);
  EXPECT_EQ(decision.rule, Rule::kNoAclForResource);
}

TEST_F(AuthorizerTest, AnAclForSomeoneElseStillDeniesWhenEveryoneIsAllowed) {
  // allow.everyone.if.no.acl.found applies only when no ACL names the resource at all.
  config_.allow_everyone_if_no_acl_found = true;
  add({.principal = "User:bob"});
  const AuthorizationDecision decision = decide(AclOperation::kRead, "orders", "User:alice");
  EXPECT_FALSE(decision.allowed);
  EXPECT_EQ(decision.rule, Rule::kNoAllowingAcl);
}

TEST_F(AuthorizerTest, TenThousandAclsAreNotScannedPerRequest) {
  for (int i = 0; i < 5'000; ++i) {
    add({.name = "topic-" + std::to_string(i)});
    add({.name = "team-" + std::to_string(i) + "-", .pattern = AclPatternType::kPrefixed});
  }
  ASSERT_EQ(store_.size(), 10'000u);
  const AuthorizationDecision literal = decide(AclOperation::kRead, "topic-4321");
  EXPECT_TRUE(literal.allowed);
  EXPECT_EQ(literal.acls_examined, 1u);
  const AuthorizationDecision prefixed = decide(AclOperation::kRead, "team-42-orders");
  EXPECT_TRUE(prefixed.allowed);
  EXPECT_EQ(prefixed.acls_examined, 1u);
  const AuthorizationDecision none = decide(AclOperation::kRead, "team-99999-x");
  EXPECT_EQ(none.rule, Rule::kNoAclForResource);
}

TEST(AuthorizerSuperUsers, ParsesKafkasSemicolonList) {
  const SuperUsersParse parse = parse_super_users(" User:admin ;User:ops;; Group:root ");
  EXPECT_EQ(parse.error, std::nullopt);
  EXPECT_EQ(parse.principals, (std::vector<std::string>{"User:admin", "User:ops", "Group:root"}));
  EXPECT_TRUE(parse_super_users("").principals.empty());
}

TEST(AuthorizerSuperUsers, RefusesAnEntryThatIsNotAPrincipal) {
  const SuperUsersParse parse = parse_super_users("User:admin;admin");
  EXPECT_EQ(parse.error, "super.users: 'admin' is not principalType:principalName");
  EXPECT_TRUE(parse.principals.empty());
}

}  // namespace
}  // namespace kgroups::broker
