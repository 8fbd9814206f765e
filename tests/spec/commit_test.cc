// SPDX-License-Identifier: Apache-2.0
//
// SPEC.md, "Commit" and `committed` in "Operations": commit of positions, commit
// of an offsets map (assignment check, offset range, rewind, empty map), and
// that committing never moves a position.

#include <cstdint>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kgroups/kgroups.h"
#include "reference_keys.h"
#include "topic_state.h"

namespace {

using kgroups_spec::append_to_partition;
using kgroups_spec::partition_offsets;
using kgroups_spec::spans;
using Offsets = std::map<int, std::int64_t>;

// The group's committed offset of every partition.
std::vector<std::int64_t> all_committed(const kgroups::Topic& topic, const std::string& group) {
  std::vector<std::int64_t> result;
  result.reserve(static_cast<std::size_t>(topic.num_partitions()));
  for (int p = 0; p < topic.num_partitions(); ++p) result.push_back(topic.committed(group, p));
  return result;
}

// 6 partitions with 5 records each; group "g" with A [0, 1, 2] and B [3, 4, 5].
kgroups::Topic two_member_topic() {
  kgroups::Topic topic(6);
  for (int p = 0; p < 6; ++p) append_to_partition(topic, p, 5);
  topic.join("g", "A");
  topic.join("g", "B");
  return topic;
}

TEST(SpecCommit, CommittedIsZeroWithoutACommit) {
  kgroups::Topic topic = two_member_topic();
  EXPECT_EQ(all_committed(topic, "g"), (std::vector<std::int64_t>(6, 0)));
  EXPECT_EQ(all_committed(topic, "never-existed"), (std::vector<std::int64_t>(6, 0)));
}

TEST(SpecCommit, CommitStoresThePositionOfEveryAssignedPartition) {
  kgroups::Topic topic = two_member_topic();
  ASSERT_EQ(topic.poll("g", "A", 7).size(), 7U);  // p0 to 5, p1 to 2, p2 untouched
  topic.commit("g", "A");
  EXPECT_EQ(all_committed(topic, "g"), (std::vector<std::int64_t>{5, 2, 0, 0, 0, 0}));
  ASSERT_EQ(topic.poll("g", "B", 11).size(), 11U);  // p3 to 5, p4 to 5, p5 to 1
  topic.commit("g", "B");
  EXPECT_EQ(all_committed(topic, "g"), (std::vector<std::int64_t>{5, 2, 0, 5, 5, 1}));
}

TEST(SpecCommit, CommitWithoutOffsetsStoresPositionsEvenBelowCommitted) {
  // The position after a rebalance is the committed offset; a later explicit
  // rewind leaves the position where it is, and commit() stores the position.
  kgroups::Topic topic(1);
  append_to_partition(topic, 0, 5);
  topic.join("g", "A");
  ASSERT_EQ(topic.poll("g", "A", 2).size(), 2U);
  topic.commit("g", "A", {{0, 4}});
  EXPECT_EQ(topic.committed("g", 0), 4);
  topic.commit("g", "A");
  EXPECT_EQ(topic.committed("g", 0), 2);
}

TEST(SpecCommit, IdleConsumerOrNonMemberCommitsNothingWithoutError) {
  kgroups::Topic topic(2);
  append_to_partition(topic, 0, 3);
  append_to_partition(topic, 1, 3);
  for (const char* id : {"A", "B", "C"}) topic.join("g", id);  // C idle
  ASSERT_EQ(topic.poll("g", "A").size(), 3U);
  topic.commit("g", "A");
  const auto before = all_committed(topic, "g");
  EXPECT_NO_THROW(topic.commit("g", "C"));        // idle
  EXPECT_NO_THROW(topic.commit("g", "Z"));        // non-member
  EXPECT_NO_THROW(topic.commit("unknown", "A"));  // unknown group
  EXPECT_EQ(all_committed(topic, "g"), before);
  EXPECT_EQ(all_committed(topic, "unknown"), (std::vector<std::int64_t>{0, 0}));
}

TEST(SpecCommit, CommitWithOffsetsStoresExactlyTheGivenOffsets) {
  kgroups::Topic topic = two_member_topic();
  topic.commit("g", "A", {{0, 3}, {2, 5}});
  EXPECT_EQ(all_committed(topic, "g"), (std::vector<std::int64_t>{3, 0, 5, 0, 0, 0}));
  topic.commit("g", "B", {{4, 1}});
  EXPECT_EQ(all_committed(topic, "g"), (std::vector<std::int64_t>{3, 0, 5, 0, 1, 0}));
}

TEST(SpecCommit, OffsetsZeroAndEndOffsetAreInRange) {
  kgroups::Topic topic = two_member_topic();
  topic.commit("g", "A", {{0, 0}, {1, 5}});
  EXPECT_EQ(topic.committed("g", 0), 0);
  EXPECT_EQ(topic.committed("g", 1), 5);
}

TEST(SpecCommit, CommitWithOffsetsNeedNotFollowPolls) {
  kgroups::Topic topic = two_member_topic();  // nothing polled yet
  topic.commit("g", "B", {{5, 4}});
  EXPECT_EQ(topic.committed("g", 5), 4);
}

TEST(SpecCommit, UnassignedPartitionThrowsAndCommitsNothing) {
  kgroups::Topic topic = two_member_topic();
  topic.commit("g", "A", {{0, 1}, {1, 1}});
  const auto before = all_committed(topic, "g");
  try {
    topic.commit("g", "A", {{0, 4}, {1, 4}, {3, 2}});  // 3 belongs to B
    FAIL() << "expected NotAssignedError";
  } catch (const kgroups::NotAssignedError& error) {
    EXPECT_EQ(error.partition(), 3);
    EXPECT_STRNE(error.what(), "");
  }
  EXPECT_EQ(all_committed(topic, "g"), before);
}

TEST(SpecCommit, NotAssignedErrorNamesTheFirstUnassignedPartition) {
  kgroups::Topic topic = two_member_topic();
  try {
    topic.commit("g", "B", {{0, 0}, {1, 0}, {4, 0}});
    FAIL() << "expected NotAssignedError";
  } catch (const kgroups::NotAssignedError& error) {
    EXPECT_EQ(error.partition(), 0);
  }
}

TEST(SpecCommit, PartitionOutsideTheTopicIsNotAssigned) {
  kgroups::Topic topic = two_member_topic();
  for (int partition :
       {-1, 6, 99, std::numeric_limits<int>::max(), std::numeric_limits<int>::min()}) {
    try {
      topic.commit("g", "A", {{partition, 0}});
      FAIL() << "expected NotAssignedError for partition " << partition;
    } catch (const kgroups::NotAssignedError& error) {
      EXPECT_EQ(error.partition(), partition);
    }
  }
  EXPECT_THROW(topic.commit("g", "A", {{0, 1}, {6, 0}}), kgroups::NotAssignedError);
  EXPECT_EQ(all_committed(topic, "g"), (std::vector<std::int64_t>(6, 0)));
}

TEST(SpecCommit, IdleConsumerNonMemberOrUnknownGroupCannotCommitOffsets) {
  kgroups::Topic topic(1);
  append_to_partition(topic, 0, 2);
  topic.join("g", "A");
  topic.join("g", "B");  // idle
  EXPECT_THROW(topic.commit("g", "B", {{0, 1}}), kgroups::NotAssignedError);
  EXPECT_THROW(topic.commit("g", "Z", {{0, 1}}), kgroups::NotAssignedError);
  EXPECT_THROW(topic.commit("unknown", "A", {{0, 1}}), kgroups::NotAssignedError);
  EXPECT_EQ(topic.committed("g", 0), 0);
  EXPECT_EQ(topic.committed("unknown", 0), 0);
}

TEST(SpecCommit, ConsumerThatLostAPartitionCannotCommitIt) {
  kgroups::Topic topic(2);
  append_to_partition(topic, 1, 5);
  topic.join("g", "B");  // B [0, 1]
  ASSERT_EQ(topic.poll("g", "B").size(), 5U);
  topic.join("g", "A");  // A [0], B [1]: still B's
  topic.commit("g", "B", {{1, 5}});
  topic.join("g", "0");  // "0" [0], A [1], B []
  EXPECT_THROW(topic.commit("g", "B", {{1, 2}}), kgroups::NotAssignedError);
  EXPECT_EQ(topic.committed("g", 1), 5);
}

TEST(SpecCommit, OffsetOutsideZeroToEndOffsetThrowsInvalidArgument) {
  kgroups::Topic topic = two_member_topic();  // end_offset 5 everywhere
  for (std::int64_t offset :
       {std::int64_t{-1}, std::int64_t{6}, std::int64_t{1'000'000},
        std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min()}) {
    EXPECT_THROW(topic.commit("g", "A", {{1, offset}}), std::invalid_argument)
        << "offset " << offset;
  }
  kgroups::Topic empty(1);
  empty.join("g", "A");
  EXPECT_THROW(empty.commit("g", "A", {{0, 1}}), std::invalid_argument);
  EXPECT_NO_THROW(empty.commit("g", "A", {{0, 0}}));
}

TEST(SpecCommit, BadOffsetCommitsNoneOfTheOthers) {
  kgroups::Topic topic = two_member_topic();
  topic.commit("g", "A", {{0, 1}, {1, 1}, {2, 1}});
  EXPECT_THROW(topic.commit("g", "A", {{0, 3}, {1, 4}, {2, 6}}), std::invalid_argument);
  EXPECT_THROW(topic.commit("g", "A", {{0, -1}, {1, 4}, {2, 4}}), std::invalid_argument);
  EXPECT_EQ(all_committed(topic, "g"), (std::vector<std::int64_t>{1, 1, 1, 0, 0, 0}));
}

TEST(SpecCommit, CommittingALowerOffsetRewinds) {
  kgroups::Topic topic(1);
  append_to_partition(topic, 0, 6);
  topic.join("g", "A");
  ASSERT_EQ(topic.poll("g", "A").size(), 6U);
  topic.commit("g", "A");
  EXPECT_EQ(topic.committed("g", 0), 6);
  topic.commit("g", "A", {{0, 2}});
  EXPECT_EQ(topic.committed("g", 0), 2);
  topic.leave("g", "A");
  topic.join("g", "A");
  EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{0, 2, 6}}));
}

TEST(SpecCommit, EmptyOffsetsMapCommitsNothingAndIsNotAnError) {
  kgroups::Topic topic = two_member_topic();
  ASSERT_EQ(topic.poll("g", "A").size(), 15U);
  EXPECT_NO_THROW(topic.commit("g", "A", Offsets{}));
  // Not the same as no offsets: A's positions (5, 5, 5) were not stored.
  EXPECT_EQ(all_committed(topic, "g"), (std::vector<std::int64_t>(6, 0)));
  EXPECT_NO_THROW(topic.commit("g", "Z", Offsets{}));        // non-member
  EXPECT_NO_THROW(topic.commit("unknown", "A", Offsets{}));  // unknown group
  EXPECT_EQ(all_committed(topic, "g"), (std::vector<std::int64_t>(6, 0)));
}

TEST(SpecCommit, CommitDoesNotMovePositions) {
  kgroups::Topic topic(2);
  append_to_partition(topic, 0, 6);
  append_to_partition(topic, 1, 6);
  topic.join("g", "A");
  ASSERT_EQ(partition_offsets(topic.poll("g", "A", 3)), spans({{0, 0, 3}}));
  topic.commit("g", "A", {{0, 0}, {1, 6}});  // behind and ahead of the positions
  EXPECT_EQ(partition_offsets(topic.poll("g", "A", 4)), spans({{0, 3, 6}, {1, 0, 1}}));
  topic.commit("g", "A");
  EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{1, 1, 6}}));
  EXPECT_EQ(topic.committed("g", 0), 6);
  EXPECT_EQ(topic.committed("g", 1), 1);
}

TEST(SpecCommit, CommittedOffsetsSurviveMembersComingAndGoing) {
  kgroups::Topic topic = two_member_topic();
  topic.commit("g", "A", {{0, 2}});
  topic.commit("g", "B", {{5, 3}});
  topic.join("g", "C");
  topic.leave("g", "A");
  topic.leave("g", "B");
  topic.leave("g", "C");
  EXPECT_EQ(all_committed(topic, "g"), (std::vector<std::int64_t>{2, 0, 0, 0, 0, 3}));
}

}  // namespace
