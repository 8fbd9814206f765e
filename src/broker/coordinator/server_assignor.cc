// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/server_assignor.h"

#include "broker/coordinator/range_server_assignor.h"
#include "broker/coordinator/uniform_assignor.h"

namespace kgroups::broker {
namespace {

const UniformAssignor kUniform;
const RangeServerAssignor kRange;

}  // namespace

const ServerAssignor* find_server_assignor(std::string_view name) {
  if (name == kUniform.name()) return &kUniform;
  if (name == kRange.name()) return &kRange;
  return nullptr;
}

std::vector<std::string_view> server_assignor_names() { return {kUniform.name(), kRange.name()}; }

}  // namespace kgroups::broker
