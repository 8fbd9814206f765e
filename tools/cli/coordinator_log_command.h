// SPDX-License-Identifier: Apache-2.0
//
// `kgroups offsets-log` and `kgroups transactions-log`: read a coordinator's internal topic
// (__consumer_offsets, __transaction_state) from its start to its end, over the Kafka
// protocol (Metadata, ListOffsets, Fetch), and print every record decoded, one line each,
// tombstones shown; --json prints one JSON object per line instead. offsets-log shows offset
// commits, group metadata and the consumer-group records; transactions-log each
// transactional id's states (producer id and epoch, state, partitions, timestamps).
#pragma once

#include <CLI/CLI.hpp>

#include "command_action.h"

namespace kgroups::cli {

// Add the `offsets-log` and `transactions-log` subcommands to `app`; picking one stores its
// action in `action` (which must outlive the parse).
void add_offsets_log_command(CLI::App& app, CommandAction& action);
void add_transactions_log_command(CLI::App& app, CommandAction& action);

}  // namespace kgroups::cli
