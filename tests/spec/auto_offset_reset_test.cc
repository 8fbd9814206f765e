// SPDX-License-Identifier: Apache-2.0
//
// SPEC.md, "Options", auto_offset_reset: where a group starts on a partition it
// never committed. "earliest" at offset 0; "latest" at the end offset when the
// partition is assigned; "none" gives no position, and poll throws
// NoOffsetError naming the partitions that still have no committed offset,
// changing nothing. A committed offset (even 0) always wins.

#include <cstdint>
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
using kgroups_spec::partition_offsets;
using kgroups_spec::spans;
using Partitions = std::vector<int>;

kgroups::TopicOptions with(const std::string& auto_offset_reset,
                           const std::string& assignor = "range") {
  kgroups::TopicOptions options;
  options.auto_offset_reset = auto_offset_reset;
  options.assignor = assignor;
  return options;
}

// The partitions of the NoOffsetError that polling throws; fails the test if
// it throws nothing or something else.
Partitions no_offset_partitions(kgroups::Topic& topic, const std::string& group,
                                const std::string& consumer, int max_records = 100) {
  try {
    const std::vector<kgroups::Record> records = topic.poll(group, consumer, max_records);
    ADD_FAILURE() << "poll returned " << records.size() << " records, no NoOffsetError";
  } catch (const kgroups::NoOffsetError& error) {
    return error.partitions();
  }
  return {};
}

TEST(SpecAutoOffsetReset, NoOffsetErrorIsARuntimeErrorOfItsOwn) {
  static_assert(std::is_base_of_v<std::runtime_error, kgroups::NoOffsetError>);
  static_assert(!std::is_base_of_v<std::logic_error, kgroups::NoOffsetError>);
  static_assert(!std::is_base_of_v<kgroups::NotAssignedError, kgroups::NoOffsetError>);
  static_assert(!std::is_base_of_v<kgroups::NoOffsetError, kgroups::NotAssignedError>);
}

TEST(SpecAutoOffsetReset, EarliestStartsAtTheLogStart) {
  kgroups::Topic topic(2, with("earliest"));
  append_to_partition(topic, 0, 3);
  append_to_partition(topic, 1, 2);
  topic.join("g", "A");
  EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{0, 0, 3}, {1, 0, 2}}));
}

TEST(SpecAutoOffsetReset, LatestSkipsWhatWasAppendedBeforeTheAssignment) {
  kgroups::Topic topic(2, with("latest"));
  append_to_partition(topic, 0, 3);
  append_to_partition(topic, 1, 2);
  topic.join("g", "A");
  EXPECT_TRUE(topic.poll("g", "A").empty());
  append_to_partition(topic, 1, 2);
  append_to_partition(topic, 0, 1);
  EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{0, 3, 4}, {1, 2, 4}}));
  EXPECT_EQ(topic.committed("g", 0), 0);  // still no commit: committed() says 0
  EXPECT_EQ(topic.committed("g", 1), 0);
}

TEST(SpecAutoOffsetReset, LatestIsTheEndOffsetAtTheRebalanceThatAssignsIt) {
  kgroups::Topic topic(2, with("latest"));
  topic.join("g", "A");              // ends 0, 0
  append_to_partition(topic, 1, 3);  // A has not read these
  topic.join("g", "B");              // eager: B is assigned 1 at end offset 3
  EXPECT_EQ(topic.assignment("g", "B"), (Partitions{1}));
  EXPECT_TRUE(topic.poll("g", "B").empty());
  append_to_partition(topic, 1, 1);
  EXPECT_EQ(partition_offsets(topic.poll("g", "B")), spans({{1, 3, 4}}));
}

TEST(SpecAutoOffsetReset, LatestEagerRebalanceRestartsAtTheNewEndOffset) {
  kgroups::Topic topic(1, with("latest"));
  topic.join("g", "A");
  append_to_partition(topic, 0, 3);
  topic.join("g", "B");  // A keeps 0 but restarts it: at the end offset, 3
  EXPECT_EQ(topic.assignment("g", "A"), (Partitions{0}));
  EXPECT_TRUE(topic.poll("g", "A").empty());
}

TEST(SpecAutoOffsetReset, LatestCooperativeKeptPartitionKeepsItsPosition) {
  kgroups::Topic topic(2, with("latest", "cooperative-sticky"));
  append_to_partition(topic, 0, 2);
  append_to_partition(topic, 1, 2);
  topic.join("g", "A");  // at 2 and 2
  append_to_partition(topic, 0, 2);
  append_to_partition(topic, 1, 2);
  topic.join("g", "B");  // A keeps 0 at 2; 1 moves to B at its end offset, 4
  ASSERT_EQ(topic.assignment("g", "A"), (Partitions{0}));
  ASSERT_EQ(topic.assignment("g", "B"), (Partitions{1}));
  EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{0, 2, 4}}));
  EXPECT_TRUE(topic.poll("g", "B").empty());
}

TEST(SpecAutoOffsetReset, CommittedOffsetWinsOverEveryPolicyEvenZero) {
  for (const char* policy : {"earliest", "latest", "none"}) {
    kgroups::Topic topic(1, with(policy));
    append_to_partition(topic, 0, 3);
    topic.join("g", "A");
    topic.commit("g", "A", {{0, 0}});
    topic.leave("g", "A");
    topic.join("g", "A");
    EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{0, 0, 3}})) << policy;
    topic.commit("g", "A", {{0, 2}});
    topic.join("g", "B");  // eager: A restarts 0 from 2
    topic.leave("g", "B");
    EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{0, 2, 3}})) << policy;
  }
}

TEST(SpecAutoOffsetReset, NonePollThrowsNamingEveryPartitionWithoutOffset) {
  kgroups::Topic topic(3, with("none"));
  for (int p = 0; p < 3; ++p) append_to_partition(topic, p, 2);
  topic.join("g", "A");
  EXPECT_EQ(no_offset_partitions(topic, "g", "A"), (Partitions{0, 1, 2}));
  EXPECT_EQ(no_offset_partitions(topic, "g", "A", 1), (Partitions{0, 1, 2}));
  topic.join("g", "B");  // A [0, 1], B [2]
  EXPECT_EQ(no_offset_partitions(topic, "g", "A"), (Partitions{0, 1}));
  EXPECT_EQ(no_offset_partitions(topic, "g", "B"), (Partitions{2}));
  for (int p = 0; p < 3; ++p) EXPECT_EQ(topic.committed("g", p), 0);
}

TEST(SpecAutoOffsetReset, NonePollAfterCommitWithOffsetsReadsFromThem) {
  kgroups::Topic topic(3, with("none"));
  for (int p = 0; p < 3; ++p) append_to_partition(topic, p, 4);
  topic.join("g", "A");
  topic.commit("g", "A", {{0, 1}});
  // p0 has a committed offset now; p1, p2 still none: no record at all.
  EXPECT_EQ(no_offset_partitions(topic, "g", "A"), (Partitions{1, 2}));
  topic.commit("g", "A", {{1, 0}, {2, 3}});
  EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{0, 1, 4}, {1, 0, 4}, {2, 3, 4}}));
}

TEST(SpecAutoOffsetReset, NoneFailedPollMovesNoPosition) {
  kgroups::Topic topic(3, with("none"));
  for (int p = 0; p < 3; ++p) append_to_partition(topic, p, 4);
  topic.join("g", "A");
  topic.commit("g", "A", {{0, 1}, {1, 2}});
  topic.join("g", "B");   // A [0, 1] from 1 and 2; B [2] with none
  topic.leave("g", "B");  // A [0, 1, 2]: positions 1, 2 and none
  EXPECT_EQ(no_offset_partitions(topic, "g", "A", 2), (Partitions{2}));
  EXPECT_EQ(no_offset_partitions(topic, "g", "A", 2), (Partitions{2}));
  topic.commit("g", "A", {{2, 4}});
  EXPECT_EQ(partition_offsets(topic.poll("g", "A", 2)), spans({{0, 1, 3}}));
  EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{0, 3, 4}, {1, 2, 4}}));
}

TEST(SpecAutoOffsetReset, NoneFailedPollTakesNoPositionFromACommit) {
  // The failed poll finds p0's committed offset 1, but takes no position: the
  // later poll starts p0 from the committed offset as it is then, 3.
  kgroups::Topic topic(2, with("none"));
  for (int p = 0; p < 2; ++p) append_to_partition(topic, p, 4);
  topic.join("g", "A");
  topic.commit("g", "A", {{0, 1}});
  EXPECT_EQ(no_offset_partitions(topic, "g", "A"), (Partitions{1}));
  topic.commit("g", "A", {{0, 3}, {1, 0}});
  EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{0, 3, 4}, {1, 0, 4}}));
}

TEST(SpecAutoOffsetReset, NoneCommitWithoutOffsetsSkipsPartitionsWithoutPosition) {
  kgroups::Topic topic(3, with("none"));
  for (int p = 0; p < 3; ++p) append_to_partition(topic, p, 4);
  topic.join("g", "A");
  topic.commit("g", "A", {{0, 2}});
  topic.join("g", "B");  // A [0, 1]: 0 from 2, 1 with no position
  topic.commit("g", "A");
  EXPECT_EQ(topic.committed("g", 0), 2);
  // Had 1 been committed (at 0), this poll would read it.
  EXPECT_EQ(no_offset_partitions(topic, "g", "A"), (Partitions{1}));
  topic.commit("g", "A", {{1, 1}});
  EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{0, 2, 4}, {1, 1, 4}}));
  topic.commit("g", "A");  // now both have positions
  EXPECT_EQ(topic.committed("g", 0), 4);
  EXPECT_EQ(topic.committed("g", 1), 4);
}

TEST(SpecAutoOffsetReset, NoneCommitsOfOtherGroupsDoNotCount) {
  kgroups::Topic topic(1, with("none"));
  append_to_partition(topic, 0, 2);
  topic.join("h", "A");
  topic.commit("h", "A", {{0, 1}});
  topic.join("g", "A");
  EXPECT_EQ(no_offset_partitions(topic, "g", "A"), (Partitions{0}));
  EXPECT_EQ(partition_offsets(topic.poll("h", "A")), spans({{0, 1, 2}}));
}

TEST(SpecAutoOffsetReset, NoneRebalanceAfterACommitStartsFromIt) {
  kgroups::Topic topic(2, with("none"));
  for (int p = 0; p < 2; ++p) append_to_partition(topic, p, 3);
  topic.join("g", "A");
  topic.commit("g", "A", {{0, 1}, {1, 2}});
  topic.join("g", "B");  // A [0], B [1]
  EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{0, 1, 3}}));
  EXPECT_EQ(partition_offsets(topic.poll("g", "B")), spans({{1, 2, 3}}));
}

TEST(SpecAutoOffsetReset, NoneMaxRecordsIsCheckedFirstAndZeroReturnsNothing) {
  kgroups::Topic topic(2, with("none"));
  append_to_partition(topic, 0, 2);
  topic.join("g", "A");
  EXPECT_THROW((void)topic.poll("g", "A", -1), std::invalid_argument);
  EXPECT_TRUE(topic.poll("g", "A", 0).empty());
  EXPECT_EQ(no_offset_partitions(topic, "g", "A", 1), (Partitions{0, 1}));
}

TEST(SpecAutoOffsetReset, NoneConsumerWithoutPartitionsGetsNothing) {
  kgroups::Topic topic(1, with("none"));
  append_to_partition(topic, 0, 2);
  topic.join("g", "A");
  topic.join("g", "B");  // idle
  EXPECT_TRUE(topic.poll("g", "B").empty());
  EXPECT_TRUE(topic.poll("g", "Z").empty());        // not a member
  EXPECT_TRUE(topic.poll("unknown", "A").empty());  // no such group
}

TEST(SpecAutoOffsetReset, NoneCooperativeMovedPartitionHasNoPositionKeptOneKeepsIt) {
  kgroups::Topic topic(2, with("none", "cooperative-sticky"));
  for (int p = 0; p < 2; ++p) append_to_partition(topic, p, 3);
  topic.join("g", "A");
  topic.commit("g", "A", {{0, 1}});
  ASSERT_EQ(no_offset_partitions(topic, "g", "A"), (Partitions{1}));
  topic.join("g", "B");  // A keeps 0 (no position yet, a committed 1); 1 moves to B
  EXPECT_EQ(partition_offsets(topic.poll("g", "A", 1)), spans({{0, 1, 2}}));
  EXPECT_EQ(no_offset_partitions(topic, "g", "B"), (Partitions{1}));
  topic.join("g", "C");  // idle; A keeps its position on 0
  EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{0, 2, 3}}));
}

}  // namespace
