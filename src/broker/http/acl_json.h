// SPDX-License-Identifier: Apache-2.0
//
// ACLs as the control endpoint's JSON (docs/HTTP-API.md, "Users and ACLs"): an object with
// resource_type, resource_name, pattern_type, principal, host, operation and permission, the
// enums by Kafka's names as acl_name() prints them ("TOPIC", "PREFIXED", "DESCRIBE_CONFIGS",
// "ALLOW"; read case-insensitively). A binding to create and a filter to delete with are read
// from such objects; every mistake is a std::invalid_argument whose message names the field
// and what it may be (the routes answer 400 with it).
// Thread-safe: pure functions.
#pragma once

#include <nlohmann/json.hpp>

#include "broker/authorizer/acl_binding.h"

namespace kgroups::broker::http {

nlohmann::ordered_json acl_to_json(const AclBinding& binding);

// A binding to create: resource_type, resource_name, principal, operation and permission are
// required; pattern_type defaults to LITERAL and host to "*". Checked with acl_binding_refusal
// (Kafka's CreateAcls rules); `where` ("ACL 2") prefixes messages.
AclBinding acl_binding_from_json(const nlohmann::json& object, std::string_view where);

// A filter (DeleteAcls' rules, acl_filter_refusal): every field optional, absent = ANY
// (names, principal and host: any); pattern_type may also be MATCH.
AclBindingFilter acl_filter_from_json(const nlohmann::json& object);

}  // namespace kgroups::broker::http
