// SPDX-License-Identifier: Apache-2.0
#include "command_options.h"

namespace kgroups::cli {

void add_command_options(CLI::App& command, CommandOptions& options) {
  command
      .add_option("--bootstrap-server", options.bootstrap_server,
                  "the broker to start from, HOST:PORT (IPv6: [HOST]:PORT)")
      ->capture_default_str()
      ->check(
          [](const std::string& text) -> std::string {
            return parse_broker_address(text)
                       ? ""
                       : "'" + text + "' is not HOST:PORT with a port in 1-65535";
          },
          "HOST:PORT");
  command.add_flag("--json", options.json, "print JSON instead of a table");
  command
      .add_option("--timeout-ms", options.timeout_ms,
                  "give up when the broker has not answered the whole command by then")
      ->capture_default_str()
      ->check(CLI::Range(1, 3600000));
}

}  // namespace kgroups::cli
