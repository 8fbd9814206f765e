// SPDX-License-Identifier: Apache-2.0
#include "broker/http/acl_json.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <string>

namespace kgroups::broker::http {
namespace {

using nlohmann::json;

constexpr std::string_view kFields[] = {"resource_type", "resource_name", "pattern_type",
                                        "principal",     "host",          "operation",
                                        "permission"};
constexpr std::string_view kFieldList =
    "resource_type, resource_name, pattern_type, principal, host, operation, permission";
// The highest code of Kafka's ACL enums (AclOperation's TWO_PHASE_COMMIT).
constexpr std::int8_t kHighestAclCode = 15;

[[noreturn]] void refuse(std::string_view where, const std::string& message) {
  throw std::invalid_argument(where.empty() ? message : std::string(where) + ": " + message);
}

std::string upper(std::string text) {
  std::ranges::transform(text, text.begin(),
                         [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return text;
}

void refuse_unknown_fields(const json& object, std::string_view where) {
  if (!object.is_object())
    refuse(where, "an ACL must be a JSON object with " + std::string(kFieldList));
  for (const auto& [name, value] : object.items()) {
    if (std::ranges::find(kFields, name) == std::end(kFields)) {
      refuse(where, "unknown field \"" + name + "\"; an ACL has " + std::string(kFieldList));
    }
  }
}

std::string string_field(const json& object, const char* name, std::string_view where) {
  const json& value = object.at(name);
  if (!value.is_string()) refuse(where, std::string("\"") + name + "\" must be a string");
  return value.get<std::string>();
}

// The enum value whose acl_name is the field's text (any case). `from_code` maps Kafka's codes;
// `allowed(value)` says which values the caller accepts (a binding takes no ANY or MATCH).
template <class Enum, class FromCode, class Allowed>
Enum enum_field(const json& object, const char* name, std::string_view where, FromCode from_code,
                Allowed allowed) {
  const std::string given = upper(string_field(object, name, where));
  std::string choices;
  for (std::int8_t code = 1; code <= kHighestAclCode; ++code) {
    const Enum value = from_code(code);
    if (acl_name(value) == "UNKNOWN" || !allowed(value)) continue;
    if (acl_name(value) == given) return value;
    choices += (choices.empty() ? "" : " ") + std::string(acl_name(value)) + ",";
  }
  if (!choices.empty()) choices.pop_back();
  refuse(where,
         std::string("\"") + name + "\": unknown value \"" + given + "\"; use one of " + choices);
}

template <class Enum>
bool concrete(Enum value) {
  return value != Enum::kAny;
}
bool concrete_pattern(AclPatternType value) {
  return value == AclPatternType::kLiteral || value == AclPatternType::kPrefixed;
}
template <class Enum>
bool any_value(Enum) {
  return true;
}

void require(const json& object, std::string_view where) {
  for (const char* name :
       {"resource_type", "resource_name", "principal", "operation", "permission"}) {
    if (!object.contains(name)) {
      refuse(where, std::string("\"") + name +
                        "\" is missing; an ACL needs resource_type, resource_name, principal, "
                        "operation and permission (pattern_type LITERAL and host \"*\" when "
                        "absent)");
    }
  }
}

}  // namespace

nlohmann::ordered_json acl_to_json(const AclBinding& binding) {
  return {{"resource_type", acl_name(binding.resource_type)},
          {"resource_name", binding.resource_name},
          {"pattern_type", acl_name(binding.pattern_type)},
          {"principal", binding.principal},
          {"host", binding.host},
          {"operation", acl_name(binding.operation)},
          {"permission", acl_name(binding.permission)}};
}

AclBinding acl_binding_from_json(const json& object, std::string_view where) {
  refuse_unknown_fields(object, where);
  require(object, where);
  AclBinding binding;
  binding.resource_type = enum_field<AclResourceType>(
      object, "resource_type", where, acl_resource_type_from_code, concrete<AclResourceType>);
  binding.resource_name = string_field(object, "resource_name", where);
  if (object.contains("pattern_type")) {
    binding.pattern_type = enum_field<AclPatternType>(object, "pattern_type", where,
                                                      acl_pattern_type_from_code, concrete_pattern);
  }
  binding.principal = string_field(object, "principal", where);
  binding.host = object.contains("host") ? string_field(object, "host", where) : "*";
  binding.operation = enum_field<AclOperation>(object, "operation", where, acl_operation_from_code,
                                               concrete<AclOperation>);
  binding.permission = enum_field<AclPermissionType>(
      object, "permission", where, acl_permission_type_from_code, concrete<AclPermissionType>);
  if (const std::optional<std::string> refusal = acl_binding_refusal(binding)) {
    refuse(where, *refusal);
  }
  return binding;
}

AclBindingFilter acl_filter_from_json(const json& object) {
  refuse_unknown_fields(object, "filter");
  AclBindingFilter filter = any_acl_filter();
  if (object.contains("resource_type")) {
    filter.resource_type = enum_field<AclResourceType>(
        object, "resource_type", "filter", acl_resource_type_from_code, any_value<AclResourceType>);
  }
  if (object.contains("resource_name")) {
    filter.resource_name = string_field(object, "resource_name", "filter");
  }
  if (object.contains("pattern_type")) {
    filter.pattern_type = enum_field<AclPatternType>(
        object, "pattern_type", "filter", acl_pattern_type_from_code, any_value<AclPatternType>);
  }
  if (object.contains("principal")) filter.principal = string_field(object, "principal", "filter");
  if (object.contains("host")) filter.host = string_field(object, "host", "filter");
  if (object.contains("operation")) {
    filter.operation = enum_field<AclOperation>(object, "operation", "filter",
                                                acl_operation_from_code, any_value<AclOperation>);
  }
  if (object.contains("permission")) {
    filter.permission =
        enum_field<AclPermissionType>(object, "permission", "filter", acl_permission_type_from_code,
                                      any_value<AclPermissionType>);
  }
  if (const std::optional<std::string> refusal = acl_filter_refusal(filter)) {
    refuse("filter", *refusal);
  }
  return filter;
}

}  // namespace kgroups::broker::http
