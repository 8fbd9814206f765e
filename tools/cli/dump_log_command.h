// SPDX-License-Identifier: Apache-2.0
//
// `kgroups dump-log FILE...`: prints what a log directory's files hold (kgroupsd --log-dirs,
// or Kafka's own), as Kafka's kafka-dump-log.sh does: a segment's batches (offsets,
// producer, timestamps, CRC) and with --print-data-log each record; where a segment stops
// being valid (a torn or corrupt tail, reserved zeros) and why; an .index's or .timeindex's
// entries.
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iosfwd>

#include "command_action.h"

namespace kgroups::cli {

// Prints `file` (a .log, .index or .timeindex named by its base offset) to `out`; records
// too with `print_data`. Returns 0, or throws std::runtime_error for a file that cannot be
// read or is not one of those.
int dump_log_file(const std::filesystem::path& file, bool print_data, std::ostream& out);

// Adds the `dump-log` subcommand to `app`; picking it stores its action in `action`.
void add_dump_log_command(CLI::App& app, CommandAction& action);

}  // namespace kgroups::cli
