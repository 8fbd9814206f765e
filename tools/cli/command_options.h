// SPDX-License-Identifier: Apache-2.0
//
// CommandOptions: the options every broker-facing subcommand takes (--bootstrap-server,
// --json, --timeout-ms) and the function that adds them to a CLI11 subcommand, so each
// subcommand's --help lists them. Value type; not thread-safe.
#pragma once

#include <CLI/CLI.hpp>
#include <chrono>
#include <string>

#include "kafka_client/broker_address.h"
#include "kafka_client/broker_connection.h"

namespace kgroups::cli {

struct CommandOptions {
  std::string bootstrap_server = "localhost:9092";
  bool json = false;
  int timeout_ms = 10000;  // the whole command's time budget

  // The parsed --bootstrap-server (add_command_options() has validated it).
  [[nodiscard]] BrokerAddress bootstrap() const { return *parse_broker_address(bootstrap_server); }
  // Now plus --timeout-ms.
  [[nodiscard]] Deadline deadline() const {
    return std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  }
};

// Adds --bootstrap-server, --json and --timeout-ms to `command`, writing into `options`
// (which must outlive the parse).
void add_command_options(CLI::App& command, CommandOptions& options);

}  // namespace kgroups::cli
