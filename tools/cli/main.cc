// SPDX-License-Identifier: Apache-2.0
//
// The `kgroups` command: parses the command line with CLI11 (every subcommand has --help),
// runs the chosen subcommand's action, and turns failures into a message on stderr and a
// non-zero exit code (2 for a bad command line, 1 for a failed command).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <exception>
#include <iostream>

#include "certs_command.h"
#include "command_action.h"
#include "coordinator_log_command.h"
#include "demo_command.h"
#include "dump_log_command.h"
#include "groups_command.h"
#include "topics_command.h"

namespace {

constexpr const char* kFooter =
    "Run 'kgroups <command> --help' for a command's options.\n"
    "Shell completion: not available; CLI11 2.3, which parses these options, has no "
    "completion generator.\n";

// The first word naming no subcommand where one is expected (e.g. "kgroups frobnicate",
// "kgroups groups frob"), as "unknown command ..."; empty when every word names one. CLI11
// alone would only say that a subcommand is required.
std::string unknown_command(CLI::App& app, int argc, char** argv) {
  CLI::App* current = &app;
  std::string path = "kgroups";
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word.starts_with("-")) continue;
    const std::vector<CLI::App*> children =
        current->get_subcommands([](CLI::App*) { return true; });
    if (children.empty()) break;  // a leaf: the rest are its arguments
    const auto named = std::find_if(children.begin(), children.end(),
                                    [&](CLI::App* child) { return child->check_name(word); });
    if (named == children.end()) {
      std::string message = "unknown command '" + word + "' for '";
      message += path;
      message += "'; run '";
      message += path;
      message += " --help' for the list";
      return message;
    }
    current = *named;
    path += " " + word;
  }
  return "";
}

int run_kgroups(int argc, char** argv) {
  CLI::App app{
      "kgroups: Kafka's consumer-group model, exact and fast.\n"
      "Inspects consumer groups and topics of kgroupsd or any Kafka cluster over the Kafka "
      "protocol.",
      "kgroups"};
  app.set_version_flag("--version", "kgroups " KGROUPS_VERSION);
  app.footer(kFooter);
  app.require_subcommand(1);

  kgroups::cli::CommandAction action;
  app.add_subcommand("demo",
                     "run SPEC.md's worked example and narrate every step, then compare what range "
                     "and cooperative-sticky replay when a consumer crashes")
      ->callback([&action] { action = kgroups::cli::run_demo; });
  kgroups::cli::add_groups_command(app, action);
  kgroups::cli::add_topics_command(app, action);
  kgroups::cli::add_offsets_log_command(app, action);
  kgroups::cli::add_transactions_log_command(app, action);
  kgroups::cli::add_certs_command(app, action);
  kgroups::cli::add_dump_log_command(app, action);

  if (argc == 1) {
    std::cout << app.help();
    return 0;
  }
  if (const std::string unknown = unknown_command(app, argc, argv); !unknown.empty()) {
    std::cerr << "kgroups: " << unknown << "\n";
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    return code == 0 ? 0 : 2;
  }
  try {
    return action ? action(std::cout) : 0;
  } catch (const std::exception& error) {
    std::cout.flush();
    std::cerr << "kgroups: " << error.what() << "\n";
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run_kgroups(argc, argv);
  } catch (const std::exception& error) {
    std::cerr << "kgroups: " << error.what() << "\n";
  } catch (...) {
    std::cerr << "kgroups: unknown error\n";
  }
  return 1;
}
