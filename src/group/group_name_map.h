// SPDX-License-Identifier: Apache-2.0
//
// GroupNameMap: groups by name, looked up by std::string_view without a copy.
// The consumer-group and share-group registries keep their groups in one.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

namespace kgroups {

struct GroupNameHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view name) const noexcept {
    return std::hash<std::string_view>{}(name);
  }
};

template <typename GroupType>
using GroupNameMap =
    std::unordered_map<std::string, std::unique_ptr<GroupType>, GroupNameHash, std::equal_to<>>;

}  // namespace kgroups
