// SPDX-License-Identifier: Apache-2.0
//
// Randomized model-based test: thousands of seeded random operation sequences
// (valid and invalid) run on kgroups::Topic and on the Oracle of oracle.h,
// comparing every result and every error kind after each call, and the whole
// observable state (end offsets, committed offsets, assignments, positions) at
// regular points. The Options tests do the same with random TopicOptions
// (partitioner, assignor, auto_offset_reset), also comparing lag and the
// rebalance history. A failure prints the sequence's seed and its operations;
// rerun one sequence with KGROUPS_MODEL_SEED=<seed> KGROUPS_MODEL_SEQUENCES=1.

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kgroups/kgroups.h"
#include "oracle.h"
#include "random_sequence.h"
#include "seeded_runs.h"

namespace {

using kgroups_model::Mix;
using kgroups_model::Oracle;
using kgroups_model::Sequence;

// Runs the sequences; stops at the first mismatch and reports its seed.
void run_sequences(std::uint64_t default_seed, std::uint64_t default_count, int steps,
                   const Mix& mix, bool random_options = false) {
  kgroups_model::run_seeded(default_seed, default_count, [&](std::uint64_t seed) {
    return Sequence(seed, mix, random_options).run(steps);
  });
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

// `mix` with many more joins and leaves, so groups rebalance often.
Mix membership_heavy(Mix mix) {
  mix.append = 15;
  mix.join = 15;
  mix.leave = 12;
  mix.poll = 15;
  mix.commit = 10;
  mix.commit_offsets = 15;
  return mix;
}

TEST(TopicModel, MembershipHeavySequencesMatchTheOracle) {
  run_sequences(77000000, 400, 120, membership_heavy(Mix{}));
}

TEST(TopicModel, LongSequencesMatchTheOracle) { run_sequences(91000000, 10, 2000, Mix{}); }

// The oracle's own options against SPEC.md's examples and Kafka's vectors, so a
// mistake in it cannot hide behind the same mistake in the engine.
TEST(TopicModel, OracleFollowsTheOptionsExamples) {
  EXPECT_EQ(Oracle::murmur2("21"), -973932308);
  EXPECT_EQ(Oracle::murmur2("foobar"), -790332482);
  EXPECT_EQ(Oracle::murmur2("a-little-bit-long-string"), -985981536);
  EXPECT_EQ(Oracle::murmur2("a-little-bit-longer-string"), -1486304829);
  EXPECT_EQ(Oracle::murmur2("lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8"), -58897971);
  EXPECT_EQ(Oracle::murmur2("abc"), 479470107);
  EXPECT_EQ(Oracle::partition_for("foobar", 6, "murmur2"), (-790332482 & 0x7fffffff) % 6);
  EXPECT_EQ(Oracle::partition_for("foobar", 7, "fnv1a"), static_cast<int>(3214735720U % 7));
  EXPECT_THROW((void)Oracle::partition_for("foobar", 6, "murmur3"), std::invalid_argument);
  EXPECT_THROW(Oracle(3, kgroups::TopicOptions{"fnv1a", "Range", "earliest"}),
               std::invalid_argument);

  Oracle roundrobin(7, kgroups::TopicOptions{"fnv1a", "roundrobin", "earliest"});
  for (const char* id : {"C", "B", "A"}) roundrobin.join("g", id);
  EXPECT_EQ(roundrobin.assignment("g", "A"), (std::vector<int>{0, 3, 6}));
  EXPECT_EQ(roundrobin.assignment("g", "B"), (std::vector<int>{1, 4}));
  EXPECT_EQ(roundrobin.assignment("g", "C"), (std::vector<int>{2, 5}));

  Oracle sticky(6, kgroups::TopicOptions{"fnv1a", "cooperative-sticky", "none"});
  sticky.join("g", "A");
  EXPECT_EQ(sticky.assignment("g", "A"), (std::vector<int>{0, 1, 2, 3, 4, 5}));
  sticky.join("g", "B");
  EXPECT_EQ(sticky.assignment("g", "A"), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(sticky.assignment("g", "B"), (std::vector<int>{3, 4, 5}));
  sticky.join("g", "C");
  EXPECT_EQ(sticky.assignment("g", "A"), (std::vector<int>{0, 1}));
  EXPECT_EQ(sticky.assignment("g", "B"), (std::vector<int>{3, 4}));
  EXPECT_EQ(sticky.assignment("g", "C"), (std::vector<int>{2, 5}));
  const std::vector<kgroups::Rebalance> history = sticky.rebalances("g");
  ASSERT_EQ(history.size(), 3U);
  EXPECT_EQ(history[2].generation, 3);
  EXPECT_EQ(history[2].members[0], (kgroups::MemberRebalance{"A", {0, 1}, {2}, {}}));
  EXPECT_EQ(history[2].members[2], (kgroups::MemberRebalance{"C", {2, 5}, {}, {2, 5}}));
  EXPECT_THROW((void)sticky.poll("g", "C", 10), kgroups::NoOffsetError);
  EXPECT_TRUE(sticky.poll("g", "C", 0).empty());
  EXPECT_EQ(sticky.lag("g"),
            (std::map<int, std::int64_t>{{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}}));
}

// The Options runs: every sequence with its own random TopicOptions.
Mix options_mix() {
  Mix mix;
  mix.lag = 3;
  mix.rebalances = 3;
  mix.partition_for_named = 2;
  return mix;
}

TEST(TopicModel, RandomOptionSequencesMatchTheOracle) {
  run_sequences(14000000, 600, 120, options_mix(), true);
}

TEST(TopicModel, MembershipHeavyOptionSequencesMatchTheOracle) {
  run_sequences(14100000, 400, 120, membership_heavy(options_mix()), true);
}

TEST(TopicModel, LongOptionSequencesMatchTheOracle) {
  run_sequences(14200000, 12, 2000, options_mix(), true);
}

}  // namespace
