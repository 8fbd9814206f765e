// SPDX-License-Identifier: Apache-2.0
//
// `kgroups topics list|describe`: topics over the Kafka protocol (Metadata, ListOffsets).
#pragma once

#include <CLI/CLI.hpp>

#include "command_action.h"

namespace kgroups::cli {

// Adds the `topics` subcommand and its subcommands to `app`; the one the user picks stores
// its action in `action` (which must outlive the parse).
void add_topics_command(CLI::App& app, CommandAction& action);

}  // namespace kgroups::cli
