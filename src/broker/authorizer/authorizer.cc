// SPDX-License-Identifier: Apache-2.0
#include "broker/authorizer/authorizer.h"

#include <utility>

namespace kgroups::broker {
namespace {

using Rule = AuthorizationDecision::Rule;

// The operations whose ALLOW also allows DESCRIBE (Kafka's IMPLIES_DESCRIBE).
bool implies_describe(AclOperation operation) {
  return operation == AclOperation::kRead || operation == AclOperation::kWrite ||
         operation == AclOperation::kDelete || operation == AclOperation::kAlter;
}

bool operation_matches(const AclBinding& acl, AclOperation wanted) {
  if (acl.operation == AclOperation::kAll || acl.operation == wanted) return true;
  if (acl.permission != AclPermissionType::kAllow) return false;  // a DENY implies nothing
  if (wanted == AclOperation::kDescribe) return implies_describe(acl.operation);
  if (wanted == AclOperation::kDescribeConfigs) {
    return acl.operation == AclOperation::kAlterConfigs;
  }
  return false;
}

bool entry_matches(const AclBinding& acl, const AclAction& action) {
  return (acl.principal == action.principal || acl.principal == kWildcardPrincipal) &&
         (acl.host == kAclWildcard || acl.host == action.host) &&
         operation_matches(acl, action.operation);
}

std::string_view trimmed(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

}  // namespace

SuperUsersParse parse_super_users(std::string_view setting) {
  SuperUsersParse parse;
  while (!setting.empty()) {
    const std::size_t end = setting.find(';');
    const std::string_view entry = trimmed(setting.substr(0, end));
    setting = end == std::string_view::npos ? std::string_view{} : setting.substr(end + 1);
    if (entry.empty()) continue;
    if (!is_acl_principal(entry)) {
      return {{}, "super.users: '" + std::string(entry) + "' is not principalType:principalName"};
    }
    parse.principals.emplace_back(entry);
  }
  return parse;
}

std::string AuthorizationDecision::reason() const {
  switch (rule) {
    case Rule::kSuperUser:
      return "allowed as a super user";
    case Rule::kAllowAcl:
      return "allowed by " + describe_acl(*acl);
    case Rule::kDenyAcl:
      return "denied by " + describe_acl(*acl);
    case Rule::kNoAclForResource:
      return std::string(allowed ? "allowed" : "denied") +
             ": no ACL for the resource (allow.everyone.if.no.acl.found=" +
             (allowed ? "true" : "false") + ")";
    case Rule::kNoAllowingAcl:
      break;
  }
  return "denied: no ACL allows it";
}

Authorizer::Authorizer(const AclStore& acls, AuthorizerConfig config)
    : acls_(acls),
      super_users_(config.super_users.begin(), config.super_users.end()),
      allow_everyone_if_no_acl_found_(config.allow_everyone_if_no_acl_found) {}

bool Authorizer::is_super_user(std::string_view principal) const {
  return super_users_.contains(principal);
}

bool Authorizer::authorize_by_resource_type(const AclAction& action) const {
  AclAction hardcoded = action;
  hardcoded.resource_name = "hardcode";
  if (authorize(hardcoded).allowed) return true;
  AclBindingFilter of_type;
  of_type.resource_type = action.resource_type;
  std::set<std::string, std::less<>> denied_literals;
  std::set<std::string, std::less<>> denied_prefixes;
  std::vector<AclBinding> allowing;
  for (AclBinding& acl : acls_.describe(of_type)) {
    const bool applies =
        (acl.principal == action.principal || acl.principal == kWildcardPrincipal) &&
        (acl.host == kAclWildcard || acl.host == action.host) &&
        (acl.operation == action.operation || acl.operation == AclOperation::kAll);
    if (!applies) continue;
    const bool literal = acl.pattern_type == AclPatternType::kLiteral;
    if (acl.permission == AclPermissionType::kDeny) {
      if (literal && acl.resource_name == kAclWildcard) return false;
      (literal ? denied_literals : denied_prefixes).insert(std::move(acl.resource_name));
    } else if (literal && acl.resource_name == kAclWildcard) {
      return true;
    } else {
      allowing.push_back(std::move(acl));
    }
  }
  for (const AclBinding& acl : allowing) {
    if (acl.pattern_type == AclPatternType::kLiteral &&
        denied_literals.contains(acl.resource_name)) {
      continue;
    }
    bool dominated = false;
    for (std::size_t length = 1; length <= acl.resource_name.size() && !dominated; ++length) {
      dominated = denied_prefixes.contains(std::string_view(acl.resource_name).substr(0, length));
    }
    if (!dominated) return true;
  }
  return false;
}

AuthorizationDecision Authorizer::authorize(const AclAction& action) const {
  if (is_super_user(action.principal)) return {true, Rule::kSuperUser, nullptr, 0};
  const AclBinding* allowing = nullptr;
  const AclBinding* denying = nullptr;
  std::size_t examined = 0;
  // Whether the walk stopped early shows in `denying`.
  (void)acls_.index().visit_applying(action.resource_type, action.resource_name,
                                     [&](const AclBinding& acl) {
                                       ++examined;
                                       if (!entry_matches(acl, action)) return true;
                                       if (acl.permission == AclPermissionType::kDeny) {
                                         denying = &acl;
                                         return false;  // a DENY wins: no need to look further
                                       }
                                       allowing = &acl;
                                       return true;
                                     });
  if (denying != nullptr) return {false, Rule::kDenyAcl, denying, examined};
  if (allowing != nullptr) return {true, Rule::kAllowAcl, allowing, examined};
  if (examined == 0) {
    return {allow_everyone_if_no_acl_found_, Rule::kNoAclForResource, nullptr, 0};
  }
  return {false, Rule::kNoAllowingAcl, nullptr, examined};
}

}  // namespace kgroups::broker
