// SPDX-License-Identifier: Apache-2.0
//
// BenchOptions: the command line of kgroups_broker_bench, the librdkafka client
// that bench/broker_bench.sh runs once per phase and target. Plain data.
#pragma once

#include <cstdint>
#include <string>

namespace kgroups::bench {

struct BenchOptions {
  std::string bootstrap;                 // HOST:PORT of the broker under test
  std::string phase;                     // "produce", "consume" or "group"
  std::string topic = "bench";           // must exist with `partitions` partitions
  std::string group_id;                  // consume and group phases; default "broker-bench-<pid>"
  std::int64_t messages = 1000000;       // messages produced, then expected back
  int partitions = 6;                    // partition of message i is i % partitions
  int members = 2;                       // consumers in the group phase, one thread each
  std::int64_t round_messages = 150000;  // consume/group: produced, then read, per round
  int broker_pid = 0;                    // the broker's pid, for its CPU time; 0: not measured
  std::string debug;        // librdkafka "debug" contexts for the consumers, e.g. "cgrp,protocol"
  int join_timeout_s = 30;  // group phase: fails if no message arrives by then
  int timeout_s = 300;      // a phase fails if it has not finished by then
};

// Parses argv. On bad input, prints what was wrong and the usage to stderr and
// exits with status 2.
BenchOptions parse_bench_options(int argc, char** argv);

}  // namespace kgroups::bench
