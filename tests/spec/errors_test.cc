// SPDX-License-Identifier: Apache-2.0
//
// SPEC.md, "Errors" and "Validation order and edge cases": which exception each
// bad call throws, the order in which arguments are checked, and that every
// error leaves the whole topic exactly as it was.

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "kgroups/kgroups.h"
#include "reference_keys.h"
#include "topic_state.h"

namespace {

using kgroups_spec::append_to_partition;
constexpr int kIntMax = std::numeric_limits<int>::max();
constexpr int kIntMin = std::numeric_limits<int>::min();

TEST(SpecErrors, NotAssignedErrorIsNeitherInvalidArgumentNorOutOfRange) {
  static_assert(std::is_base_of_v<std::runtime_error, kgroups::NotAssignedError>);
  static_assert(!std::is_base_of_v<std::invalid_argument, kgroups::NotAssignedError>);
  static_assert(!std::is_base_of_v<std::out_of_range, kgroups::NotAssignedError>);
  static_assert(!std::is_base_of_v<std::logic_error, kgroups::NotAssignedError>);
  kgroups::Topic topic(1);
  topic.join("g", "A");
  topic.join("g", "B");
  bool caught = false;
  try {
    topic.commit("g", "B", {{0, 0}});
  } catch (const std::logic_error&) {
    FAIL() << "NotAssignedError must not be caught as std::logic_error";
  } catch (const kgroups::NotAssignedError&) {
    caught = true;
  }
  EXPECT_TRUE(caught);
}

TEST(SpecErrors, PartitionCountBelowOneThrowsInvalidArgument) {
  for (int n : {0, -1, kIntMin}) {
    EXPECT_THROW(kgroups::Topic topic(n), std::invalid_argument) << "n=" << n;
  }
  EXPECT_EQ(kgroups::Topic(1).num_partitions(), 1);
}

TEST(SpecErrors, PartitionOutOfRangeInEndOffsetThrowsOutOfRange) {
  kgroups::Topic topic(6);
  for (int p : {-1, 6, 7, kIntMax, kIntMin}) {
    EXPECT_THROW((void)topic.end_offset(p), std::out_of_range) << "p=" << p;
  }
}

TEST(SpecErrors, PartitionOutOfRangeInCommittedThrowsOutOfRange) {
  kgroups::Topic topic(6);
  topic.join("g", "A");
  for (int p : {-1, 6, kIntMax, kIntMin}) {
    EXPECT_THROW((void)topic.committed("g", p), std::out_of_range) << "p=" << p;
  }
}

TEST(SpecErrors, CommittedOfUnknownGroupChecksThePartitionFirst) {
  kgroups::Topic topic(6);
  EXPECT_THROW((void)topic.committed("unknown", 99), std::out_of_range);
  EXPECT_EQ(topic.committed("unknown", 5), 0);
}

TEST(SpecErrors, NegativeMaxRecordsIsInvalidEvenWithoutPartitions) {
  kgroups::Topic topic(1);
  topic.join("g", "A");
  topic.join("g", "B");                                                       // idle
  EXPECT_THROW((void)topic.poll("g", "B", -1), std::invalid_argument);        // idle
  EXPECT_THROW((void)topic.poll("g", "Z", -1), std::invalid_argument);        // non-member
  EXPECT_THROW((void)topic.poll("unknown", "A", -1), std::invalid_argument);  // unknown group
}

TEST(SpecErrors, AssignmentIsCheckedBeforeOffsetRange) {
  kgroups::Topic topic(2);
  append_to_partition(topic, 0, 1);
  topic.join("g", "A");
  topic.join("g", "B");  // A [0], B [1]
  // A bad offset on an assigned partition, next to an unassigned partition.
  EXPECT_THROW(topic.commit("g", "A", {{0, 99}, {1, 0}}), kgroups::NotAssignedError);
  EXPECT_THROW(topic.commit("g", "A", {{0, -1}, {1, 0}}), kgroups::NotAssignedError);
  // A bad offset on the unassigned partition itself.
  EXPECT_THROW(topic.commit("g", "A", {{1, 99}}), kgroups::NotAssignedError);
  // A partition outside the topic with a bad offset is still "not assigned".
  EXPECT_THROW(topic.commit("g", "A", {{99, -5}}), kgroups::NotAssignedError);
  EXPECT_THROW(topic.commit("g", "A", {{-1, 99}}), kgroups::NotAssignedError);
  // A non-member with bad offsets.
  EXPECT_THROW(topic.commit("g", "Z", {{0, -1}}), kgroups::NotAssignedError);
  // With every partition assigned, the offset range decides.
  EXPECT_THROW(topic.commit("g", "A", {{0, 2}}), std::invalid_argument);
}

TEST(SpecErrors, ErrorMessagesAreNotEmpty) {
  kgroups::Topic topic(2);
  topic.join("g", "A");
  const auto message_of = [](const std::function<void()>& call) -> std::string {
    try {
      call();
    } catch (const std::exception& error) {
      return error.what();
    }
    return "<no exception>";
  };
  EXPECT_NE(message_of([] { kgroups::Topic bad(0); }), "");
  EXPECT_NE(message_of([&] { (void)topic.end_offset(2); }), "");
  EXPECT_NE(message_of([&] { (void)topic.committed("g", -1); }), "");
  EXPECT_NE(message_of([&] { (void)topic.poll("g", "A", -1); }), "");
  EXPECT_NE(message_of([&] { topic.commit("g", "A", {{0, 1}}); }), "");
  EXPECT_NE(message_of([&] { topic.commit("g", "B", {{0, 0}}); }), "");
  EXPECT_NE(message_of([&] { topic.commit("g", "A", {{0, 1}}); }), "<no exception>");
}

// Builds the same rich state on any topic: two groups, positions ahead of
// committed offsets, an idle member.
void build_state(kgroups::Topic& topic) {
  for (int p = 0; p < 3; ++p) append_to_partition(topic, p, 4 + p);
  for (const char* id : {"A", "B", "C", "D"}) topic.join("g", id);  // D idle
  topic.join("h", "A");
  (void)topic.poll("g", "A", 1);
  (void)topic.poll("g", "B", 3);
  topic.commit("g", "B", {{1, 2}});
  (void)topic.poll("h", "A", 6);
  topic.commit("h", "A");
  (void)topic.poll("h", "A", 2);
}

TEST(SpecErrors, EveryErrorLeavesTheTopicExactlyAsItWas) {
  using Call = std::function<void(kgroups::Topic&)>;
  struct BadCall {
    const char* name;
    Call call;
  };
  const std::vector<BadCall> bad_calls = {
      {"end_offset(3)", [](kgroups::Topic& t) { (void)t.end_offset(3); }},
      {"end_offset(-1)", [](kgroups::Topic& t) { (void)t.end_offset(-1); }},
      {"committed(g, 3)", [](kgroups::Topic& t) { (void)t.committed("g", 3); }},
      {"committed(new, -1)", [](kgroups::Topic& t) { (void)t.committed("new", -1); }},
      {"poll(g, A, -1)", [](kgroups::Topic& t) { (void)t.poll("g", "A", -1); }},
      {"poll(g, D, -1)", [](kgroups::Topic& t) { (void)t.poll("g", "D", -1); }},
      {"poll(new, X, -1)", [](kgroups::Topic& t) { (void)t.poll("new", "X", -1); }},
      {"commit(g, A, {0: 1, 1: 0})",
       [](kgroups::Topic& t) {
         t.commit("g", "A", {{0, 1}, {1, 0}});
       }},
      {"commit(g, A, {3: 0})",
       [](kgroups::Topic& t) {
         t.commit("g", "A", {{3, 0}});
       }},
      {"commit(g, D, {0: 0})",
       [](kgroups::Topic& t) {
         t.commit("g", "D", {{0, 0}});
       }},
      {"commit(new, X, {0: 0})",
       [](kgroups::Topic& t) {
         t.commit("new", "X", {{0, 0}});
       }},
      {"commit(h, A, {0: 1, 2: 7})",
       [](kgroups::Topic& t) {
         t.commit("h", "A", {{0, 1}, {2, 7}});
       }},
      {"commit(h, A, {0: -1, 1: 1})",
       [](kgroups::Topic& t) {
         t.commit("h", "A", {{0, -1}, {1, 1}});
       }},
      {"commit(g, B, {1: 6})",
       [](kgroups::Topic& t) {
         t.commit("g", "B", {{1, 6}});
       }},
  };
  const std::vector<std::string> groups = {"g", "h", "new"};
  const std::vector<std::string> consumers = {"A", "B", "C", "D", "X"};
  for (const BadCall& bad : bad_calls) {
    SCOPED_TRACE(bad.name);
    kgroups::Topic topic(3);
    kgroups::Topic twin(3);
    build_state(topic);
    build_state(twin);
    EXPECT_ANY_THROW(bad.call(topic));
    kgroups_spec::compare_whole_state(topic, twin, groups, consumers);
  }
}

TEST(SpecErrors, TopicWorksNormallyAfterAnError) {
  kgroups::Topic topic(2);
  topic.join("g", "A");
  EXPECT_THROW(topic.commit("g", "A", {{0, 5}}), std::invalid_argument);
  const auto [p, offset] = topic.append(kgroups_spec::key_on_partition(0, 2), "v");
  EXPECT_EQ(p, 0);
  EXPECT_EQ(offset, 0);
  EXPECT_EQ(topic.poll("g", "A").size(), 1U);
  topic.commit("g", "A");
  EXPECT_EQ(topic.committed("g", 0), 1);
}

}  // namespace
