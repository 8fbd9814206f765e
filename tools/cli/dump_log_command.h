// SPDX-License-Identifier: Apache-2.0
//
// `kgroups dump-log FILE... [--print-data-log] [--json]`: prints what a log directory's files
// hold (kgroupsd --log-dirs, or Kafka's own), in the lines of Kafka's kafka-dump-log.sh:
// - a segment (`.log`, also `.log.cleaned`, `.log.swap`, `.log.deleted`): "Log starting
//   offset", then one line per batch (offsets, producer, epoch, timestamp, size, codec, CRC
//   and whether it matches) and, with --print-data-log, one "| offset: ..." line per record
//   (compressed batches decompressed; control records as their marker); then where the
//   segment stops being valid and why, as recovery would see it (a torn or corrupt tail, or
//   preallocated zeros);
// - an `.index`: "offset: O position: P" lines; a `.timeindex`: "timestamp: T offset: O".
// --json prints one JSON object per file instead (one line each), for tests and tools.
// A file that is missing, unreadable or not named as Kafka names these files is an error
// (exit code 2); a damaged segment is not: dumping it is the point.
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iosfwd>
#include <stdexcept>

#include "command_action.h"

namespace kgroups::cli {

struct DumpLogOptions {
  bool print_data_log = false;  // each record of each batch too
  bool json = false;            // one JSON object per file
};

// A file dump-log cannot dump: missing, unreadable, or not a segment or index file. The
// message names the file.
class DumpLogError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Prints `file` to `out`. Throws DumpLogError, having printed nothing, when the file cannot
// be read or is not a .log, .index or .timeindex named by its 20-digit base offset.
void dump_log_file(const std::filesystem::path& file, const DumpLogOptions& options,
                   std::ostream& out);

// Adds the `dump-log` subcommand to `app`; picking it stores its action in `action` (which
// must outlive the parse). The action dumps every file, reports each it cannot dump on
// stderr, and returns 2 if there was one, else 0.
void add_dump_log_command(CLI::App& app, CommandAction& action);

}  // namespace kgroups::cli
