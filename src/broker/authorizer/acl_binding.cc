// SPDX-License-Identifier: Apache-2.0
#include "broker/authorizer/acl_binding.h"

#include <array>

namespace kgroups::broker {
namespace {

constexpr std::array<std::string_view, 8> kResourceTypeNames = {
    "UNKNOWN", "ANY", "TOPIC", "GROUP", "CLUSTER", "TRANSACTIONAL_ID", "DELEGATION_TOKEN", "USER"};
constexpr std::array<std::string_view, 5> kPatternTypeNames = {"UNKNOWN", "ANY", "MATCH", "LITERAL",
                                                               "PREFIXED"};
constexpr std::array<std::string_view, 16> kOperationNames = {"UNKNOWN",
                                                              "ANY",
                                                              "ALL",
                                                              "READ",
                                                              "WRITE",
                                                              "CREATE",
                                                              "DELETE",
                                                              "ALTER",
                                                              "DESCRIBE",
                                                              "CLUSTER_ACTION",
                                                              "DESCRIBE_CONFIGS",
                                                              "ALTER_CONFIGS",
                                                              "IDEMPOTENT_WRITE",
                                                              "CREATE_TOKENS",
                                                              "DESCRIBE_TOKENS",
                                                              "TWO_PHASE_COMMIT"};
constexpr std::array<std::string_view, 4> kPermissionTypeNames = {"UNKNOWN", "ANY", "DENY",
                                                                  "ALLOW"};

template <typename Enum, std::size_t N>
std::string_view name_in(const std::array<std::string_view, N>& names, Enum value) {
  const auto code = static_cast<std::size_t>(static_cast<std::uint8_t>(value));
  return code < N ? names[code] : names[0];
}

template <typename Enum, std::size_t N>
Enum from_code_in(const std::array<std::string_view, N>&, std::int8_t code) {
  return code >= 0 && static_cast<std::size_t>(code) < N ? static_cast<Enum>(code) : Enum{0};
}

bool only_in_filters(AclResourceType type) {
  return type == AclResourceType::kUnknown || type == AclResourceType::kAny;
}

bool only_in_filters(AclPatternType type) {
  return type != AclPatternType::kLiteral && type != AclPatternType::kPrefixed;
}

bool only_in_filters(AclOperation operation) {
  return operation == AclOperation::kUnknown || operation == AclOperation::kAny;
}

bool only_in_filters(AclPermissionType permission) {
  return permission != AclPermissionType::kDeny && permission != AclPermissionType::kAllow;
}

std::string invalid(std::string_view field, std::string_view value) {
  return "Invalid " + std::string(field) + " " + std::string(value);
}

bool optional_equals(const std::optional<std::string>& wanted, const std::string& value) {
  return !wanted || *wanted == value;
}

// Kafka's ResourcePatternFilter.matches, the name part: the filter's name is given.
bool name_matches(const AclBindingFilter& filter, const AclBinding& binding) {
  const std::string& name = *filter.resource_name;
  if (filter.pattern_type != AclPatternType::kMatch) return name == binding.resource_name;
  if (binding.pattern_type == AclPatternType::kPrefixed) {
    return std::string_view(name).starts_with(binding.resource_name);
  }
  return name == binding.resource_name || binding.resource_name == kAclWildcard;
}

bool pattern_matches(const AclBindingFilter& filter, const AclBinding& binding) {
  if (filter.resource_type != AclResourceType::kAny &&
      filter.resource_type != binding.resource_type) {
    return false;
  }
  if (filter.pattern_type != AclPatternType::kAny &&
      filter.pattern_type != AclPatternType::kMatch &&
      filter.pattern_type != binding.pattern_type) {
    return false;
  }
  return !filter.resource_name || name_matches(filter, binding);
}

bool entry_matches(const AclBindingFilter& filter, const AclBinding& binding) {
  return optional_equals(filter.principal, binding.principal) &&
         optional_equals(filter.host, binding.host) &&
         (filter.operation == AclOperation::kAny || filter.operation == binding.operation) &&
         (filter.permission == AclPermissionType::kAny || filter.permission == binding.permission);
}

}  // namespace

std::string_view acl_name(AclResourceType type) { return name_in(kResourceTypeNames, type); }
std::string_view acl_name(AclPatternType type) { return name_in(kPatternTypeNames, type); }
std::string_view acl_name(AclOperation operation) { return name_in(kOperationNames, operation); }
std::string_view acl_name(AclPermissionType permission) {
  return name_in(kPermissionTypeNames, permission);
}

AclResourceType acl_resource_type_from_code(std::int8_t code) {
  return from_code_in<AclResourceType>(kResourceTypeNames, code);
}
AclPatternType acl_pattern_type_from_code(std::int8_t code) {
  return from_code_in<AclPatternType>(kPatternTypeNames, code);
}
AclOperation acl_operation_from_code(std::int8_t code) {
  return from_code_in<AclOperation>(kOperationNames, code);
}
AclPermissionType acl_permission_type_from_code(std::int8_t code) {
  return from_code_in<AclPermissionType>(kPermissionTypeNames, code);
}

bool is_acl_principal(std::string_view principal) {
  const std::size_t colon = principal.find(':');
  return colon != std::string_view::npos && colon > 0 && colon + 1 < principal.size();
}

std::string describe_acl(const AclBinding& binding) {
  std::string line = "(";
  line.append(acl_name(binding.resource_type)).append(":");
  line.append(acl_name(binding.pattern_type)).append(":").append(binding.resource_name);
  line.append(", ").append(binding.principal).append(" from ").append(binding.host);
  line.append(", ").append(acl_name(binding.operation));
  line.append(", ").append(acl_name(binding.permission)).append(")");
  return line;
}

std::optional<std::string> acl_binding_refusal(const AclBinding& binding) {
  if (binding.resource_type == AclResourceType::kCluster &&
      binding.resource_name != kClusterResourceName) {
    return "The only valid name for the CLUSTER resource is " + std::string(kClusterResourceName);
  }
  if (binding.resource_name.empty()) return "Invalid empty resource name";
  if (only_in_filters(binding.resource_type)) {
    return invalid("resourceType", acl_name(binding.resource_type));
  }
  if (only_in_filters(binding.pattern_type)) {
    return invalid("patternType", acl_name(binding.pattern_type));
  }
  if (only_in_filters(binding.operation)) return invalid("operation", acl_name(binding.operation));
  if (only_in_filters(binding.permission)) {
    return invalid("permissionType", acl_name(binding.permission));
  }
  if (!is_acl_principal(binding.principal)) {
    return "Invalid principal '" + binding.principal +
           "': expected principalType:principalName, e.g. User:alice";
  }
  return std::nullopt;
}

bool AclBindingFilter::matches(const AclBinding& binding) const {
  return pattern_matches(*this, binding) && entry_matches(*this, binding);
}

AclBindingFilter any_acl_filter() { return AclBindingFilter{}; }

std::optional<std::string> acl_filter_refusal(const AclBindingFilter& filter) {
  if (filter.resource_type == AclResourceType::kUnknown ||
      filter.pattern_type == AclPatternType::kUnknown) {
    return "Unknown patternFilter.";
  }
  if (filter.operation == AclOperation::kUnknown ||
      filter.permission == AclPermissionType::kUnknown) {
    return "Unknown entryFilter.";
  }
  return std::nullopt;
}

}  // namespace kgroups::broker
