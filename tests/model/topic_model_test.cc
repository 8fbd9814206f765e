// SPDX-License-Identifier: Apache-2.0
//
// Randomized model-based test: thousands of seeded random operation sequences
// (valid and invalid) run on kgroups::Topic and on the Oracle of oracle.h,
// comparing every result and every error kind after each call, and the whole
// observable state (end offsets, committed offsets, assignments, positions) at
// regular points. A failure prints the sequence's seed and its operations;
// rerun one sequence with KGROUPS_MODEL_SEED=<seed> KGROUPS_MODEL_SEQUENCES=1.

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kgroups/kgroups.h"
#include "oracle.h"
#include "random_sequence.h"

namespace {

using kgroups_model::Mix;
using kgroups_model::Oracle;
using kgroups_model::Sequence;

std::uint64_t env_or(const char* name, std::uint64_t fallback) {
  // Read on the test's main thread before any other thread exists.
  const char* text = std::getenv(name);  // NOLINT(concurrency-mt-unsafe)
  return text == nullptr ? fallback : std::strtoull(text, nullptr, 10);
}

// Runs the sequences; stops at the first mismatch and reports its seed.
void run_sequences(std::uint64_t default_seed, std::uint64_t default_count, int steps,
                   const Mix& mix) {
  const std::uint64_t base_seed = env_or("KGROUPS_MODEL_SEED", default_seed);
  const std::uint64_t count = env_or("KGROUPS_MODEL_SEQUENCES", default_count);
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t seed = base_seed + i;
    std::string mismatch = Sequence(seed, mix).run(steps);
    if (!mismatch.empty()) {
      ADD_FAILURE() << "sequence seed " << seed << " (rerun: KGROUPS_MODEL_SEED=" << seed
                    << " KGROUPS_MODEL_SEQUENCES=1)\n"
                    << mismatch;
      return;
    }
  }
}

TEST(TopicModel, OracleFollowsTheSpecExamples) {
  EXPECT_EQ(Oracle::partition_for("", 1000000007), static_cast<int>(2166136261U % 1000000007U));
  EXPECT_EQ(Oracle::partition_for("a", 1000000007), static_cast<int>(3826002220U % 1000000007U));
  EXPECT_EQ(Oracle::partition_for("foobar", 1000000007),
            static_cast<int>(3214735720U % 1000000007U));
  Oracle six(6);
  for (const char* id : {"C", "A", "B"}) six.join("billing", id);
  EXPECT_EQ(six.assignment("billing", "A"), (std::vector<int>{0, 1}));
  EXPECT_EQ(six.assignment("billing", "C"), (std::vector<int>{4, 5}));
  six.leave("billing", "B");
  EXPECT_EQ(six.assignment("billing", "A"), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(six.assignment("billing", "C"), (std::vector<int>{3, 4, 5}));
  EXPECT_THROW(six.commit("billing", "C", {{2, 0}}), kgroups::NotAssignedError);
  Oracle seven(7);
  for (const char* id : {"A", "B", "C"}) seven.join("g", id);
  EXPECT_EQ(seven.assignment("g", "A"), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(seven.assignment("g", "B"), (std::vector<int>{3, 4}));
  Oracle two(2);
  for (const char* id : {"A", "B", "C"}) two.join("g", id);
  EXPECT_EQ(two.assignment("g", "C"), (std::vector<int>{}));
  EXPECT_THROW((void)two.committed("unknown", 99), std::out_of_range);
  EXPECT_THROW((void)two.poll("g", "C", -1), std::invalid_argument);
}

TEST(TopicModel, RandomSequencesMatchTheOracle) { run_sequences(20261130, 600, 120, Mix{}); }

TEST(TopicModel, MembershipHeavySequencesMatchTheOracle) {
  Mix mix;
  mix.append = 15;
  mix.join = 15;
  mix.leave = 12;
  mix.poll = 15;
  mix.commit = 10;
  mix.commit_offsets = 15;
  run_sequences(77000000, 400, 120, mix);
}

TEST(TopicModel, LongSequencesMatchTheOracle) { run_sequences(91000000, 10, 2000, Mix{}); }

}  // namespace
