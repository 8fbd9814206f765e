// SPDX-License-Identifier: Apache-2.0
#include "broker/storage/partition_reassignment.h"

#include <algorithm>

namespace kgroups::broker {
namespace {

bool contains(std::span<const std::int32_t> nodes, std::int32_t node) {
  return std::find(nodes.begin(), nodes.end(), node) != nodes.end();
}

}  // namespace

ReassignmentPlan plan_reassignment(std::span<const std::int32_t> original,
                                   std::span<const std::int32_t> target) {
  ReassignmentPlan plan;
  plan.change.target.assign(target.begin(), target.end());
  plan.change.original.assign(original.begin(), original.end());
  plan.replicas.assign(target.begin(), target.end());
  for (const std::int32_t node : target) {
    if (!contains(original, node)) plan.change.adding.push_back(node);
  }
  for (const std::int32_t node : original) {
    if (contains(target, node)) continue;
    plan.change.removing.push_back(node);
    plan.replicas.push_back(node);
  }
  return plan;
}

}  // namespace kgroups::broker
