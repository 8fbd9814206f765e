// SPDX-License-Identifier: Apache-2.0
//
// assignor_named: the Assignor behind each name TopicOptions::assignor accepts
// ("range", "roundrobin", "sticky", "cooperative-sticky"). The instances are
// immutable singletons that live for the whole program.
#pragma once

#include <string_view>

#include "group/assignor.h"

namespace kgroups {

// The assignor of that name, or nullptr if there is none.
[[nodiscard]] const Assignor* assignor_named(std::string_view name) noexcept;

}  // namespace kgroups
