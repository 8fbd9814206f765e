// SPDX-License-Identifier: Apache-2.0
#include "broker/http/acl_routes.h"

#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "broker/http/acl_json.h"

namespace kgroups::broker::http {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

[[noreturn]] void refuse(const std::string& message) { throw std::invalid_argument(message); }

json parse_body(std::string_view text, std::string_view example) {
  json body = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded()) refuse("the body is not valid JSON; send " + std::string(example));
  return body;
}

ordered_json acl_list(const std::vector<AclBinding>& bindings) {
  ordered_json list = ordered_json::array();
  for (const AclBinding& binding : bindings) list.push_back(acl_to_json(binding));
  return list;
}

HttpResponse list(const AclStore& acls) {
  return HttpResponse::json({{"acls", acl_list(acls.describe(any_acl_filter()))}});
}

// The bindings the body asks for: one ACL object or a non-empty list of them.
std::vector<AclBinding> bindings_from_body(std::string_view text) {
  const json body = parse_body(text, "one ACL object or a list of them");
  std::vector<AclBinding> bindings;
  if (body.is_array()) {
    if (body.empty()) refuse("the list of ACLs is empty; send at least one");
    for (std::size_t i = 0; i < body.size(); ++i) {
      bindings.push_back(acl_binding_from_json(body[i], "ACL " + std::to_string(i + 1)));
    }
  } else {
    bindings.push_back(acl_binding_from_json(body, ""));
  }
  return bindings;
}

// How many of `bindings` the store does not hold yet (each counted once).
// The filter that matches `binding` and nothing else.
AclBindingFilter exactly(const AclBinding& binding) {
  return {.resource_type = binding.resource_type,
          .resource_name = binding.resource_name,
          .pattern_type = binding.pattern_type,
          .principal = binding.principal,
          .host = binding.host,
          .operation = binding.operation,
          .permission = binding.permission};
}

std::size_t new_bindings(const AclStore& acls, const std::vector<AclBinding>& bindings) {
  const std::set<AclBinding> distinct(bindings.begin(), bindings.end());
  std::size_t count = 0;
  for (const AclBinding& binding : distinct) {
    if (acls.describe(exactly(binding)).empty()) ++count;
  }
  return count;
}

HttpResponse create(AclStore& acls, const HttpRequest& request) {
  const std::vector<AclBinding> bindings = bindings_from_body(request.body);
  if (acls.size() + new_bindings(acls, bindings) > acls.max_acls()) {
    return HttpResponse::error(429, "the broker holds " + std::to_string(acls.size()) +
                                        " ACLs and may hold " + std::to_string(acls.max_acls()) +
                                        "; DELETE /v1/acls some first (nothing was created)");
  }
  // All or nothing: when the memory share runs out midway, what this request created goes.
  std::vector<AclBindingFilter> created;
  for (const AclBinding& binding : bindings) {
    const bool existed = !acls.describe(exactly(binding)).empty();
    if (const std::optional<AclCreateRefusal> refusal = acls.create(binding)) {
      if (!created.empty()) (void)acls.remove_matching(created);
      const bool memory = refusal->reason == AclCreateRefusal::Reason::kOutOfMemory;
      return HttpResponse::error(memory ? 503 : 429, refusal->message + " (nothing was created)");
    }
    if (!existed) created.push_back(exactly(binding));
  }
  return HttpResponse::json({{"created", acl_list(bindings)}}, 201);
}

HttpResponse remove(AclStore& acls, const HttpRequest& request) {
  const json body = parse_body(
      request.body, R"(a filter such as {"principal": "User:alice"}; {} deletes every ACL)");
  const AclBindingFilter filter = acl_filter_from_json(body);
  std::vector<AclDeletion> deletions = acls.remove_matching({filter});
  return HttpResponse::json({{"deleted", acl_list(deletions.at(0).deleted)}});
}

}  // namespace

void add_acl_routes(HttpRouter& router, Broker& broker) {
  AclStore& acls = broker.access().acls();
  router.add("GET", "/v1/acls", [&acls](const HttpRequest&) { return list(acls); });
  router.add("POST", "/v1/acls",
             [&acls](const HttpRequest& request) { return create(acls, request); });
  router.add("DELETE", "/v1/acls",
             [&acls](const HttpRequest& request) { return remove(acls, request); });
}

}  // namespace kgroups::broker::http
