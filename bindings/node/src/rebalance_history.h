// SPDX-License-Identifier: Apache-2.0
//
// A group's rebalance history (kgroups::Rebalance, SPEC.md "lag(group) and
// rebalances(group)") as JS data: an array of { generation, cause, consumer,
// members: [{ id, assignment, revoked, assigned }] } with plain numbers, strings
// and arrays, exactly these keys. Used on the JS thread only.
#pragma once

#include <napi.h>

#include <vector>

#include "kgroups/rebalance.h"

namespace kgroups::node {

// A new JS array holding one object per rebalance, oldest first.
[[nodiscard]] Napi::Array rebalances_to_js(Napi::Env env, const std::vector<Rebalance>& rebalances);

}  // namespace kgroups::node
