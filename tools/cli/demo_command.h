// SPDX-License-Identifier: Apache-2.0
//
// `kgroups demo`: runs SPEC.md's worked example on a real Topic and narrates
// it: each call and what it returned, each group's assignment table after each
// rebalance, and committed offsets with lag per partition. A second act
// compares what the range and cooperative-sticky assignors replay when a
// consumer crashes (replay_comparison.h).
#pragma once

#include <iosfwd>

namespace kgroups::cli {

// Writes the walkthrough to `out`; returns the process exit code.
int run_demo(std::ostream& out);

}  // namespace kgroups::cli
