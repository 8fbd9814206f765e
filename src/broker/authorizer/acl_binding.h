// SPDX-License-Identifier: Apache-2.0
//
// An ACL as Kafka states it, with nothing of the wire: the four enums with Kafka's numeric codes
// (ResourceType, PatternType, AclOperation, AclPermissionType in Kafka's clients), an AclBinding
// (a resource pattern and an access-control entry) and an AclBindingFilter (what DescribeAcls and
// DeleteAcls select with, where ANY matches every value and the MATCH pattern type matches every
// pattern that applies to a name). Also Kafka's rules for what CreateAcls accepts as a binding
// and what DeleteAcls accepts as a filter, each refusal with the INVALID_REQUEST message Kafka
// gives. Handlers translate requests into these; the authorizer and the store keep them.
// Thread-safe: plain values.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kgroups::broker {

// Kafka's ResourceType codes.
enum class AclResourceType : std::int8_t {
  kUnknown = 0,
  kAny = 1,  // in a filter only
  kTopic = 2,
  kGroup = 3,
  kCluster = 4,
  kTransactionalId = 5,
  kDelegationToken = 6,
  kUser = 7,
};

// Kafka's PatternType codes.
enum class AclPatternType : std::int8_t {
  kUnknown = 0,
  kAny = 1,    // in a filter only: any pattern type, the name compared exactly
  kMatch = 2,  // in a filter only: every pattern that applies to the filter's name
  kLiteral = 3,
  kPrefixed = 4,
};

// Kafka's AclOperation codes.
enum class AclOperation : std::int8_t {
  kUnknown = 0,
  kAny = 1,  // in a filter only
  kAll = 2,  // in an ACL: every operation
  kRead = 3,
  kWrite = 4,
  kCreate = 5,
  kDelete = 6,
  kAlter = 7,
  kDescribe = 8,
  kClusterAction = 9,
  kDescribeConfigs = 10,
  kAlterConfigs = 11,
  kIdempotentWrite = 12,
  kCreateTokens = 13,
  kDescribeTokens = 14,
  kTwoPhaseCommit = 15,
};

// Kafka's AclPermissionType codes.
enum class AclPermissionType : std::int8_t {
  kUnknown = 0,
  kAny = 1,  // in a filter only
  kDeny = 2,
  kAllow = 3,
};

// The only name a CLUSTER resource has (Kafka's Resource.CLUSTER_NAME).
inline constexpr std::string_view kClusterResourceName = "kafka-cluster";
// A LITERAL resource named "*" applies to every resource of its type; a host "*" to every host.
inline constexpr std::string_view kAclWildcard = "*";
// The principal an ACL names to apply to every user.
inline constexpr std::string_view kWildcardPrincipal = "User:*";

// Kafka's name of each value, as its enums print (TOPIC, PREFIXED, DESCRIBE_CONFIGS, ALLOW).
std::string_view acl_name(AclResourceType type);
std::string_view acl_name(AclPatternType type);
std::string_view acl_name(AclOperation operation);
std::string_view acl_name(AclPermissionType permission);

// The value of a code read off the wire; a code Kafka does not know is UNKNOWN, as Kafka's
// fromCode returns.
AclResourceType acl_resource_type_from_code(std::int8_t code);
AclPatternType acl_pattern_type_from_code(std::int8_t code);
AclOperation acl_operation_from_code(std::int8_t code);
AclPermissionType acl_permission_type_from_code(std::int8_t code);

// One ACL: who (principal, from host) may or may not (permission) do what (operation) on which
// resources (type, name, pattern type). Names are the binding's own copies.
struct AclBinding {
  AclResourceType resource_type = AclResourceType::kTopic;
  std::string resource_name;
  AclPatternType pattern_type = AclPatternType::kLiteral;
  std::string principal;  // "Type:name", e.g. "User:alice", or "User:*"
  std::string host;       // an address, or "*"
  AclOperation operation = AclOperation::kRead;
  AclPermissionType permission = AclPermissionType::kAllow;

  // clang-tidy 14 reads the defaulted comparison's internal `0` as a null pointer.
  // NOLINTNEXTLINE(modernize-use-nullptr)
  auto operator<=>(const AclBinding&) const = default;
};

// Whether `principal` is "Type:name" with both parts present. (Kafka's parser asks only for the
// colon; an ACL or super user with an empty type or name could never match a session.)
bool is_acl_principal(std::string_view principal);

// The binding as a log line shows it, e.g.
// "(TOPIC:LITERAL:orders, User:alice from *, READ, ALLOW)".
std::string describe_acl(const AclBinding& binding);

// Why CreateAcls refuses a binding (Kafka answers INVALID_REQUEST with this message), or
// nothing if it is accepted. Checked in Kafka's order, the broker's checks first: a CLUSTER
// resource not named kafka-cluster; an empty name; a resource type, pattern type, operation or
// permission that only a filter may hold (ANY, MATCH) or that is UNKNOWN; and a principal that is
// not "Type:name".
std::optional<std::string> acl_binding_refusal(const AclBinding& binding);

// What DescribeAcls and DeleteAcls select with. An empty name, principal or host matches any
// (Kafka's null); ANY matches every value of its field.
struct AclBindingFilter {
  AclResourceType resource_type = AclResourceType::kAny;
  std::optional<std::string> resource_name;
  AclPatternType pattern_type = AclPatternType::kAny;
  std::optional<std::string> principal;
  std::optional<std::string> host;
  AclOperation operation = AclOperation::kAny;
  AclPermissionType permission = AclPermissionType::kAny;

  // Kafka's AclBindingFilter.matches: every field matches. The name, when given, is compared
  // exactly, except under MATCH, where a LITERAL binding matches if it has that name or is the
  // wildcard "*", and a PREFIXED binding matches if its name is a prefix of the filter's.
  [[nodiscard]] bool matches(const AclBinding& binding) const;
};

// A filter matching every binding.
AclBindingFilter any_acl_filter();

// Why DeleteAcls refuses a filter (INVALID_REQUEST, Kafka's message), or nothing: a filter with
// an UNKNOWN resource or pattern type, or an UNKNOWN operation or permission.
std::optional<std::string> acl_filter_refusal(const AclBindingFilter& filter);

}  // namespace kgroups::broker
