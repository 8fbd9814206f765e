// SPDX-License-Identifier: Apache-2.0
//
// Command-line parsing for kgroups_broker_bench.
#include "bench_options.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace kgroups::bench {
namespace {

// Follows "usage: <program>".
constexpr const char* kUsage =
    " --bootstrap HOST:PORT --phase produce|consume|group\n"
    "          [--topic NAME] [--messages N] [--partitions P] [--members M]\n"
    "          [--group-id ID] [--round-messages R] [--broker-pid PID]\n"
    "          [--join-timeout-s S] [--timeout-s S] [--debug CONTEXTS]\n";

[[noreturn]] void usage_error(const char* program, const std::string& problem) {
  std::fprintf(stderr, "%s: %s\n", program, problem.c_str());
  std::fprintf(stderr, "usage: %s%s", program, kUsage);
  std::exit(2);
}

std::int64_t parse_positive(const char* program, const std::string& flag, const char* text) {
  char* end = nullptr;
  long long value = std::strtoll(text, &end, 10);
  if (end == text || *end != '\0' || value <= 0) {
    usage_error(program, flag + " wants a positive integer, got '" + text + "'");
  }
  return value;
}

}  // namespace

BenchOptions parse_bench_options(int argc, char** argv) {
  const char* program = argv[0];
  BenchOptions options;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    if (flag == "-h" || flag == "--help") {
      std::printf("usage: %s%s", program, kUsage);
      std::exit(0);
    }
    if (i + 1 >= argc) usage_error(program, "missing value after " + flag);
    const char* value = argv[++i];
    if (flag == "--bootstrap") {
      options.bootstrap = value;
    } else if (flag == "--phase") {
      options.phase = value;
    } else if (flag == "--topic") {
      options.topic = value;
    } else if (flag == "--group-id") {
      options.group_id = value;
    } else if (flag == "--messages") {
      options.messages = parse_positive(program, flag, value);
    } else if (flag == "--partitions") {
      options.partitions = static_cast<int>(parse_positive(program, flag, value));
    } else if (flag == "--members") {
      options.members = static_cast<int>(parse_positive(program, flag, value));
    } else if (flag == "--round-messages") {
      options.round_messages = parse_positive(program, flag, value);
    } else if (flag == "--broker-pid") {
      options.broker_pid = static_cast<int>(parse_positive(program, flag, value));
    } else if (flag == "--debug") {
      options.debug = value;
    } else if (flag == "--join-timeout-s") {
      options.join_timeout_s = static_cast<int>(parse_positive(program, flag, value));
    } else if (flag == "--timeout-s") {
      options.timeout_s = static_cast<int>(parse_positive(program, flag, value));
    } else {
      usage_error(program, "unknown option " + flag);
    }
  }
  if (options.bootstrap.empty()) usage_error(program, "--bootstrap is required");
  if (options.phase != "produce" && options.phase != "consume" && options.phase != "group") {
    usage_error(program, "--phase must be produce, consume or group");
  }
  if (options.group_id.empty()) options.group_id = "broker-bench-" + std::to_string(getpid());
  return options;
}

}  // namespace kgroups::bench
