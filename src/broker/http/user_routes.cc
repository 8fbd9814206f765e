// SPDX-License-Identifier: Apache-2.0
#include "broker/http/user_routes.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace kgroups::broker::http {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

constexpr ScramMechanism kMechanisms[] = {ScramMechanism::kSha256, ScramMechanism::kSha512};

[[noreturn]] void refuse(const std::string& message) { throw std::invalid_argument(message); }

ordered_json user_to_json(const CredentialStore& store, std::string_view user) {
  ordered_json mechanisms = ordered_json::array();
  for (const ScramMechanism mechanism : kMechanisms) {
    if (const ScramCredential* credential = store.find(user, mechanism)) {
      mechanisms.push_back(
          {{"mechanism", scram_mechanism_name(mechanism)}, {"iterations", credential->iterations}});
    }
  }
  return {{"name", user}, {"mechanisms", std::move(mechanisms)}};
}

HttpResponse list(const CredentialStore& store) {
  ordered_json users = ordered_json::array();
  for (const std::string_view user : store.user_names()) users.push_back(user_to_json(store, user));
  return HttpResponse::json({{"users", std::move(users)}});
}

// What PUT /v1/users/{name} asks for, checked.
struct PasswordChange {
  std::string password;
  std::vector<ScramMechanism> mechanisms;
  int iterations = kScramMinIterations;
};

std::vector<ScramMechanism> mechanisms_field(const json& value) {
  if (!value.is_array() || value.empty()) {
    refuse(R"("mechanisms" must be a non-empty list such as ["SCRAM-SHA-256", "SCRAM-SHA-512"])");
  }
  std::vector<ScramMechanism> mechanisms;
  for (const json& name : value) {
    const std::optional<ScramMechanism> mechanism =
        name.is_string() ? scram_mechanism_named(name.get<std::string>()) : std::nullopt;
    if (!mechanism) {
      refuse("\"mechanisms\": " + name.dump() +
             R"( is not a SCRAM mechanism; use "SCRAM-SHA-256" or "SCRAM-SHA-512")");
    }
    if (std::ranges::find(mechanisms, *mechanism) == mechanisms.end()) {
      mechanisms.push_back(*mechanism);
    }
  }
  return mechanisms;
}

PasswordChange password_change_from_json(std::string_view text) {
  const json body = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded() || !body.is_object()) {
    refuse(R"(the body must be a JSON object such as {"password": "...", "mechanisms": )"
           R"(["SCRAM-SHA-256", "SCRAM-SHA-512"], "iterations": 4096})");
  }
  for (const auto& [name, value] : body.items()) {
    if (name != "password" && name != "mechanisms" && name != "iterations") {
      refuse("unknown field \"" + name + "\"; a user takes password, mechanisms and iterations");
    }
  }
  PasswordChange change;
  if (!body.contains("password") || !body.at("password").is_string() ||
      body.at("password").get<std::string>().empty() ||
      body.at("password").get<std::string>().size() > kMaxUserPasswordBytes) {
    refuse("\"password\" must be a non-empty string of at most " +
           std::to_string(kMaxUserPasswordBytes) + " bytes");
  }
  change.password = body.at("password").get<std::string>();
  change.mechanisms =
      body.contains("mechanisms")
          ? mechanisms_field(body.at("mechanisms"))
          : std::vector<ScramMechanism>(std::begin(kMechanisms), std::end(kMechanisms));
  if (body.contains("iterations")) {
    const json& value = body.at("iterations");
    if (!value.is_number_integer() || value.get<std::int64_t>() < kScramMinIterations ||
        value.get<std::int64_t>() > kScramMaxIterations) {
      refuse("\"iterations\" must be an integer in " + std::to_string(kScramMinIterations) + ".." +
             std::to_string(kScramMaxIterations) + " (Kafka's bounds)");
    }
    change.iterations = static_cast<int>(value.get<std::int64_t>());
  }
  return change;
}

HttpResponse put(CredentialStore& store, const HttpRequest& request) {
  const std::string& user = request.path_params.at(0);
  const PasswordChange change = password_change_from_json(request.body);
  if (user.find(':') != std::string::npos) {
    refuse("user name '" + user + "' holds ':', which a user name may not");
  }
  if (!store.has_room_for(user)) {
    return HttpResponse::error(
        429, "cannot add user '" + user + "': the broker already has " +
                 std::to_string(store.max_users()) +
                 " SASL users, its limit (--max-scram-users); DELETE /v1/users/{name} first");
  }
  if (!store.has_memory_for(user, change.mechanisms, CredentialStore::kSaltBytes)) {
    return HttpResponse::error(
        503, "cannot store user '" + user +
                 "': the memory the broker keeps users in (the groups' share of --max-memory) "
                 "has no room for it; DELETE users or groups, or raise --max-memory");
  }
  const bool created = store.find(user, ScramMechanism::kSha256) == nullptr &&
                       store.find(user, ScramMechanism::kSha512) == nullptr;
  // Checked above: the name, the iterations, the bound and the memory; the store sets every
  // mechanism or none.
  if (CredentialRefusal refusal =
          store.set_password(user, change.mechanisms, change.password, change.iterations)) {
    return HttpResponse::error(500, "the store refused a checked password: " + *refusal);
  }
  return HttpResponse::json(user_to_json(store, user), created ? 201 : 200);
}

HttpResponse remove(CredentialStore& store, const HttpRequest& request) {
  const std::string& user = request.path_params.at(0);
  ordered_json described = user_to_json(store, user);
  bool deleted = false;
  for (const ScramMechanism mechanism : kMechanisms) {
    deleted = store.delete_credential(user, mechanism) || deleted;
  }
  if (!deleted) return HttpResponse::error(404, "no user " + user + "; GET /v1/users lists them");
  return HttpResponse::json({{"deleted", std::move(described)}});
}

}  // namespace

void add_user_routes(HttpRouter& router, Broker& broker) {
  CredentialStore& store = broker.access().credentials();
  router.add("GET", "/v1/users", [&store](const HttpRequest&) { return list(store); });
  router.add("PUT", "/v1/users/{name}",
             [&store](const HttpRequest& request) { return put(store, request); });
  router.add("DELETE", "/v1/users/{name}",
             [&store](const HttpRequest& request) { return remove(store, request); });
}

}  // namespace kgroups::broker::http
