// SPDX-License-Identifier: Apache-2.0
//
// The `kgroups` command: a table of subcommands, each a function.
#include <array>
#include <iostream>
#include <string_view>

#include "demo_command.h"

namespace {

struct Command {
  std::string_view name;
  std::string_view summary;
  int (*run)(std::ostream&);
};

int print_help(std::ostream& out);

constexpr std::array kCommands = {
    Command{"demo", "run SPEC.md's worked example and narrate every step", kgroups::cli::run_demo},
    Command{"help", "show this help", print_help},
};

int print_help(std::ostream& out) {
  out << "usage: kgroups <command>\n\nKafka's consumer-group model, exact and fast.\n\n"
         "commands:\n";
  for (const Command& command : kCommands) {
    out << "  " << command.name << std::string(8 - command.name.size(), ' ') << command.summary
        << "\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string_view name = argc > 1 ? argv[1] : "help";
  for (const Command& command : kCommands) {
    if (command.name == name) return command.run(std::cout);
  }
  std::cerr << "kgroups: unknown command '" << name << "'; run 'kgroups help' for the list\n";
  return 2;
}
