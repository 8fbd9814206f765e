// SPDX-License-Identifier: Apache-2.0
//
// `kgroups groups list|describe|reset-offsets`: consumer groups over the Kafka protocol, as
// kafka-consumer-groups.sh and `rpk group` show them.
#pragma once

#include <CLI/CLI.hpp>

#include "command_action.h"

namespace kgroups::cli {

// Adds the `groups` subcommand and its subcommands to `app`; the one the user picks stores
// its action in `action` (which must outlive the parse).
void add_groups_command(CLI::App& app, CommandAction& action);

// Adds `reset-offsets` to the `groups` subcommand (reset_offsets_command.cc).
void add_reset_offsets_command(CLI::App& groups, CommandAction& action);

}  // namespace kgroups::cli
