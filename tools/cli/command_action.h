// SPDX-License-Identifier: Apache-2.0
//
// CommandAction: what a parsed subcommand does. Parsing (CLI11) picks the subcommand and
// stores its action; main() runs it after the parse, writing to `out`, and turns a thrown
// exception into a message on stderr and exit code 1. Actions throw KafkaClientError for
// broker failures and std::runtime_error for everything else the user must fix (an unknown
// group, a group that is not empty).
#pragma once

#include <functional>
#include <iosfwd>

namespace kgroups::cli {

// Returns the process exit code.
using CommandAction = std::function<int(std::ostream& out)>;

}  // namespace kgroups::cli
