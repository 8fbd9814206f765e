// SPDX-License-Identifier: Apache-2.0
//
// Rebalance history to JS objects; see rebalance_history.h.
#include "rebalance_history.h"

#include <string_view>

#include "js_array.h"
#include "key_value.h"

namespace kgroups::node {
namespace {

Napi::Array partitions_to_js(Napi::Env env, const std::vector<int>& partitions) {
  std::vector<napi_value> values;
  values.reserve(partitions.size());
  for (const int partition : partitions) values.push_back(Napi::Number::New(env, partition));
  return new_js_array(env, values);
}

Napi::Value text(Napi::Env env, std::string_view utf8) { return {env, text_to_js(env, utf8)}; }

Napi::Object member_to_js(Napi::Env env, const MemberRebalance& member) {
  Napi::Object object = Napi::Object::New(env);
  object.Set("id", text(env, member.id));
  object.Set("assignment", partitions_to_js(env, member.assignment));
  object.Set("revoked", partitions_to_js(env, member.revoked));
  object.Set("assigned", partitions_to_js(env, member.assigned));
  return object;
}

Napi::Object rebalance_to_js(Napi::Env env, const Rebalance& rebalance) {
  Napi::Object object = Napi::Object::New(env);
  object.Set("generation", Napi::Number::New(env, static_cast<double>(rebalance.generation)));
  object.Set("cause", text(env, rebalance.cause));
  object.Set("consumer", text(env, rebalance.consumer));
  std::vector<napi_value> members;
  members.reserve(rebalance.members.size());
  for (const MemberRebalance& member : rebalance.members) {
    members.push_back(member_to_js(env, member));
  }
  object.Set("members", new_js_array(env, members));
  return object;
}

}  // namespace

Napi::Array rebalances_to_js(Napi::Env env, const std::vector<Rebalance>& rebalances) {
  std::vector<napi_value> values;
  values.reserve(rebalances.size());
  for (const Rebalance& rebalance : rebalances) values.push_back(rebalance_to_js(env, rebalance));
  return new_js_array(env, values);
}

}  // namespace kgroups::node
