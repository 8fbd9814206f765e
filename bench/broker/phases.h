// SPDX-License-Identifier: Apache-2.0
//
// The three phases of kgroups_broker_bench. Each runs against the broker named
// in the options, validates every message and returns what it measured; a lost,
// duplicated, altered or misplaced message, a delivery error or the timeout
// throws std::runtime_error saying what went wrong.
#pragma once

#include "bench_options.h"
#include "phase_clock.h"
#include "phase_result.h"

namespace kgroups::bench {

// Produces options.messages messages with acks=all and waits for every
// delivery report; the reported offsets must be dense in each partition.
PhaseResult run_produce(const BenchOptions& options);

// Reads every message back with one consumer assigned to all partitions from
// their beginning; offsets must arrive in order with no gap.
PhaseResult run_consume(const BenchOptions& options);

// Reads every message with options.members consumers of one group, one thread
// each; every message must reach exactly one member.
PhaseResult run_group(const BenchOptions& options);

}  // namespace kgroups::bench
