// SPDX-License-Identifier: Apache-2.0
#include "broker/authorizer/acl_binding.h"

#include <gtest/gtest.h>

#include <string>

namespace kgroups::broker {
namespace {

AclBinding topic_acl(std::string name, AclPatternType pattern = AclPatternType::kLiteral) {
  return AclBinding{AclResourceType::kTopic, std::move(name),          pattern, "User:alice", "*",
                    AclOperation::kRead,     AclPermissionType::kAllow};
}

TEST(AclBinding, CodesAreKafkas) {
  EXPECT_EQ(static_cast<int>(AclResourceType::kTopic), 2);
  EXPECT_EQ(static_cast<int>(AclResourceType::kUser), 7);
  EXPECT_EQ(static_cast<int>(AclPatternType::kMatch), 2);
  EXPECT_EQ(static_cast<int>(AclPatternType::kPrefixed), 4);
  EXPECT_EQ(static_cast<int>(AclOperation::kAll), 2);
  EXPECT_EQ(static_cast<int>(AclOperation::kDescribe), 8);
  EXPECT_EQ(static_cast<int>(AclOperation::kIdempotentWrite), 12);
  EXPECT_EQ(static_cast<int>(AclOperation::kTwoPhaseCommit), 15);
  EXPECT_EQ(static_cast<int>(AclPermissionType::kDeny), 2);
  EXPECT_EQ(static_cast<int>(AclPermissionType::kAllow), 3);
}

TEST(AclBinding, NamesAndCodesRoundTrip) {
  EXPECT_EQ(acl_name(AclResourceType::kTransactionalId), "TRANSACTIONAL_ID");
  EXPECT_EQ(acl_name(AclPatternType::kPrefixed), "PREFIXED");
  EXPECT_EQ(acl_name(AclOperation::kDescribeConfigs), "DESCRIBE_CONFIGS");
  EXPECT_EQ(acl_name(AclOperation::kTwoPhaseCommit), "TWO_PHASE_COMMIT");
  EXPECT_EQ(acl_name(AclPermissionType::kDeny), "DENY");
  EXPECT_EQ(acl_operation_from_code(11), AclOperation::kAlterConfigs);
  EXPECT_EQ(acl_resource_type_from_code(6), AclResourceType::kDelegationToken);
  EXPECT_EQ(acl_pattern_type_from_code(3), AclPatternType::kLiteral);
  EXPECT_EQ(acl_permission_type_from_code(1), AclPermissionType::kAny);
}

TEST(AclBinding, UnknownCodesReadAsUnknown) {
  EXPECT_EQ(acl_operation_from_code(16), AclOperation::kUnknown);
  EXPECT_EQ(acl_operation_from_code(-1), AclOperation::kUnknown);
  EXPECT_EQ(acl_resource_type_from_code(8), AclResourceType::kUnknown);
  EXPECT_EQ(acl_pattern_type_from_code(5), AclPatternType::kUnknown);
  EXPECT_EQ(acl_permission_type_from_code(4), AclPermissionType::kUnknown);
}

TEST(AclBinding, DescribesItselfForLogs) {
  EXPECT_EQ(describe_acl(topic_acl("orders")),
            "(TOPIC:LITERAL:orders, User:alice from *, READ, ALLOW)");
}

TEST(AclBindingValidation, AcceptsAnOrdinaryBinding) {
  EXPECT_EQ(acl_binding_refusal(topic_acl("orders")), std::nullopt);
  EXPECT_EQ(acl_binding_refusal(topic_acl("ord", AclPatternType::kPrefixed)), std::nullopt);
  AclBinding cluster{AclResourceType::kCluster,
                     "kafka-cluster",
                     AclPatternType::kLiteral,
                     "User:*",
                     "10.0.0.1",
                     AclOperation::kAlter,
                     AclPermissionType::kDeny};
  EXPECT_EQ(acl_binding_refusal(cluster), std::nullopt);
}

TEST(AclBindingValidation, ClusterResourceMustBeNamedKafkaCluster) {
  AclBinding binding = topic_acl("my-cluster");
  binding.resource_type = AclResourceType::kCluster;
  EXPECT_EQ(acl_binding_refusal(binding),
            "The only valid name for the CLUSTER resource is kafka-cluster");
}

TEST(AclBindingValidation, RefusesAnEmptyResourceName) {
  EXPECT_EQ(acl_binding_refusal(topic_acl("")), "Invalid empty resource name");
}

TEST(AclBindingValidation, RefusesFilterOnlyAndUnknownResourceTypes) {
  AclBinding binding = topic_acl("orders");
  binding.resource_type = AclResourceType::kAny;
  EXPECT_EQ(acl_binding_refusal(binding), "Invalid resourceType ANY");
  binding.resource_type = AclResourceType::kUnknown;
  EXPECT_EQ(acl_binding_refusal(binding), "Invalid resourceType UNKNOWN");
}

TEST(AclBindingValidation, RefusesPatternTypesOtherThanLiteralAndPrefixed) {
  EXPECT_EQ(acl_binding_refusal(topic_acl("orders", AclPatternType::kMatch)),
            "Invalid patternType MATCH");
  EXPECT_EQ(acl_binding_refusal(topic_acl("orders", AclPatternType::kAny)),
            "Invalid patternType ANY");
  EXPECT_EQ(acl_binding_refusal(topic_acl("orders", AclPatternType::kUnknown)),
            "Invalid patternType UNKNOWN");
}

TEST(AclBindingValidation, RefusesAnyOrUnknownOperation) {
  AclBinding binding = topic_acl("orders");
  binding.operation = AclOperation::kAny;
  EXPECT_EQ(acl_binding_refusal(binding), "Invalid operation ANY");
  binding.operation = AclOperation::kUnknown;
  EXPECT_EQ(acl_binding_refusal(binding), "Invalid operation UNKNOWN");
}

TEST(AclBindingValidation, RefusesAnyOrUnknownPermission) {
  AclBinding binding = topic_acl("orders");
  binding.permission = AclPermissionType::kAny;
  EXPECT_EQ(acl_binding_refusal(binding), "Invalid permissionType ANY");
  binding.permission = AclPermissionType::kUnknown;
  EXPECT_EQ(acl_binding_refusal(binding), "Invalid permissionType UNKNOWN");
}

TEST(AclBindingValidation, PrincipalMustBeTypeColonName) {
  for (const char* principal : {"alice", "", ":alice", "User:"}) {
    AclBinding binding = topic_acl("orders");
    binding.principal = principal;
    const auto refusal = acl_binding_refusal(binding);
    ASSERT_TRUE(refusal.has_value()) << principal;
    EXPECT_NE(refusal->find("principalType:principalName"), std::string::npos) << *refusal;
  }
  AclBinding group_principal = topic_acl("orders");
  group_principal.principal = "Group:ops:east";  // the name may hold colons
  EXPECT_EQ(acl_binding_refusal(group_principal), std::nullopt);
}

TEST(AclBindingFilter, AnyMatchesEveryBinding) {
  const AclBindingFilter any = any_acl_filter();
  EXPECT_TRUE(any.matches(topic_acl("orders")));
  EXPECT_TRUE(any.matches(topic_acl("ord", AclPatternType::kPrefixed)));
}

TEST(AclBindingFilter, AnyPatternTypeComparesTheNameExactly) {
  AclBindingFilter filter;
  filter.resource_name = "orders";
  EXPECT_TRUE(filter.matches(topic_acl("orders")));
  EXPECT_TRUE(filter.matches(topic_acl("orders", AclPatternType::kPrefixed)));
  EXPECT_FALSE(filter.matches(topic_acl("ord", AclPatternType::kPrefixed)));
  EXPECT_FALSE(filter.matches(topic_acl("*")));
}

TEST(AclBindingFilter, LiteralFilterMatchesOnlyLiteralBindingsOfThatName) {
  AclBindingFilter filter;
  filter.resource_name = "orders";
  filter.pattern_type = AclPatternType::kLiteral;
  EXPECT_TRUE(filter.matches(topic_acl("orders")));
  EXPECT_FALSE(filter.matches(topic_acl("orders", AclPatternType::kPrefixed)));
  EXPECT_FALSE(filter.matches(topic_acl("*")));
}

TEST(AclBindingFilter, MatchFindsEveryPatternThatAppliesToTheName) {
  AclBindingFilter filter;
  filter.resource_type = AclResourceType::kTopic;
  filter.resource_name = "orders";
  filter.pattern_type = AclPatternType::kMatch;
  EXPECT_TRUE(filter.matches(topic_acl("orders")));
  EXPECT_TRUE(filter.matches(topic_acl("*")));
  EXPECT_TRUE(filter.matches(topic_acl("ord", AclPatternType::kPrefixed)));
  EXPECT_TRUE(filter.matches(topic_acl("orders", AclPatternType::kPrefixed)));
  EXPECT_FALSE(filter.matches(topic_acl("orders-eu", AclPatternType::kPrefixed)));
  EXPECT_FALSE(filter.matches(topic_acl("ord")));
  EXPECT_FALSE(filter.matches(topic_acl("*", AclPatternType::kPrefixed)));
}

TEST(AclBindingFilter, MatchWithoutANameMatchesEveryName) {
  AclBindingFilter filter;
  filter.pattern_type = AclPatternType::kMatch;
  EXPECT_TRUE(filter.matches(topic_acl("orders")));
  EXPECT_TRUE(filter.matches(topic_acl("o", AclPatternType::kPrefixed)));
}

TEST(AclBindingFilter, EntryFieldsMatchExactlyOrAny) {
  AclBindingFilter filter;
  filter.principal = "User:alice";
  filter.host = "*";
  filter.operation = AclOperation::kRead;
  filter.permission = AclPermissionType::kAllow;
  EXPECT_TRUE(filter.matches(topic_acl("orders")));
  filter.principal = "User:*";  // the filter's principal is compared, not expanded
  EXPECT_FALSE(filter.matches(topic_acl("orders")));
  filter.principal.reset();
  filter.operation = AclOperation::kAll;
  EXPECT_FALSE(filter.matches(topic_acl("orders")));
  filter.operation = AclOperation::kAny;
  filter.permission = AclPermissionType::kDeny;
  EXPECT_FALSE(filter.matches(topic_acl("orders")));
}

TEST(AclBindingFilter, ResourceTypeFilters) {
  AclBindingFilter filter;
  filter.resource_type = AclResourceType::kGroup;
  EXPECT_FALSE(filter.matches(topic_acl("orders")));
}

TEST(AclBindingFilterValidation, RefusesUnknownFields) {
  AclBindingFilter filter;
  EXPECT_EQ(acl_filter_refusal(filter), std::nullopt);
  filter.pattern_type = AclPatternType::kUnknown;
  EXPECT_EQ(acl_filter_refusal(filter), "Unknown patternFilter.");
  filter = {};
  filter.resource_type = AclResourceType::kUnknown;
  EXPECT_EQ(acl_filter_refusal(filter), "Unknown patternFilter.");
  filter = {};
  filter.operation = AclOperation::kUnknown;
  EXPECT_EQ(acl_filter_refusal(filter), "Unknown entryFilter.");
  filter = {};
  filter.permission = AclPermissionType::kUnknown;
  EXPECT_EQ(acl_filter_refusal(filter), "Unknown entryFilter.");
}

}  // namespace
}  // namespace kgroups::broker
