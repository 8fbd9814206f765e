// SPDX-License-Identifier: Apache-2.0
//
// `kgroups offsets-log`: reads the internal topic __consumer_offsets from its start to its
// end, over the Kafka protocol (Metadata, ListOffsets, Fetch), and prints every record
// decoded (offset commits, group metadata, the consumer-group records), one line each,
// tombstones shown; --json prints one JSON object per line instead.
#pragma once

#include <CLI/CLI.hpp>

#include "command_action.h"

namespace kgroups::cli {

// Adds the `offsets-log` subcommand to `app`; picking it stores its action in `action`
// (which must outlive the parse).
void add_offsets_log_command(CLI::App& app, CommandAction& action);

}  // namespace kgroups::cli
