// SPDX-License-Identifier: Apache-2.0
//
// kgroups_broker_bench: runs one phase (produce, consume or group) of the
// broker benchmark against one broker and prints one "result ..." line.
// bench/broker_bench.sh drives it; exits 1 with the reason on stderr if any
// message was lost, duplicated or altered, 2 on a usage error.
#include <cstdio>
#include <exception>

#include "bench_options.h"
#include "phases.h"

int main(int argc, char** argv) {
  using namespace kgroups::bench;
  BenchOptions options = parse_bench_options(argc, argv);
  try {
    PhaseResult result = options.phase == "produce"   ? run_produce(options)
                         : options.phase == "consume" ? run_consume(options)
                                                      : run_group(options);
    print_phase_result(result);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "kgroups_broker_bench: FAILED against %s: %s\n", options.bootstrap.c_str(),
                 error.what());
    return 1;
  }
  return 0;
}
