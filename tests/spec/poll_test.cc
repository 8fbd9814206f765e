// SPDX-License-Identifier: Apache-2.0
//
// SPEC.md, "Poll", and the bytes a poll hands out: record order, max_records,
// empty results for consumers without partitions, later appends, copies made
// on append, record views that stay valid, and Encoding tags.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kgroups/kgroups.h"
#include "reference_keys.h"
#include "topic_state.h"

namespace {

using kgroups_spec::append_to_partition;
using kgroups_spec::key_on_partition;
using kgroups_spec::OwnedRecord;
using kgroups_spec::partition_offsets;
using kgroups_spec::poll_all;
using kgroups_spec::spans;

TEST(SpecPoll, PartitionsAscendingThenOffsetOrder) {
  constexpr int kPartitions = 4;
  kgroups::Topic topic(kPartitions);
  // Interleave appends so that append order differs from poll order.
  std::vector<std::vector<std::string>> values(kPartitions);
  for (int i = 0; i < 5; ++i) {
    for (int p : {3, 1, 0, 2}) {
      const std::string value = "p" + std::to_string(p) + "-" + std::to_string(i);
      topic.append(key_on_partition(p, kPartitions), value);
      values[p].push_back(value);
    }
  }
  topic.join("g", "A");
  const std::vector<kgroups::Record> records = topic.poll("g", "A");
  ASSERT_EQ(records.size(), 20U);
  std::size_t index = 0;
  for (int p = 0; p < kPartitions; ++p) {
    for (std::int64_t offset = 0; offset < 5; ++offset, ++index) {
      EXPECT_EQ(records[index].partition, p);
      EXPECT_EQ(records[index].offset, offset);
      EXPECT_EQ(records[index].key, key_on_partition(p, kPartitions));
      EXPECT_EQ(records[index].value, values[p][offset]);
    }
  }
}

TEST(SpecPoll, ReturnsOnlyTheConsumersPartitions) {
  kgroups::Topic topic(4);
  for (int p = 0; p < 4; ++p) append_to_partition(topic, p, 2);
  topic.join("g", "A");
  topic.join("g", "B");
  EXPECT_EQ(partition_offsets(topic.poll("g", "B")), spans({{2, 0, 2}, {3, 0, 2}}));
  EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{0, 0, 2}, {1, 0, 2}}));
}

TEST(SpecPoll, MaxRecordsLimitsEachPollAndLaterPollsContinue) {
  kgroups::Topic topic(3);
  for (int p = 0; p < 3; ++p) append_to_partition(topic, p, 4);
  topic.join("g", "A");
  // Batches of 5 cross partition boundaries: p0 0-3 + p1 0, p1 1-3 + p2 0-1, p2 2-3.
  EXPECT_EQ(partition_offsets(topic.poll("g", "A", 5)), spans({{0, 0, 4}, {1, 0, 1}}));
  EXPECT_EQ(partition_offsets(topic.poll("g", "A", 5)), spans({{1, 1, 4}, {2, 0, 2}}));
  EXPECT_EQ(partition_offsets(topic.poll("g", "A", 5)), spans({{2, 2, 4}}));
  EXPECT_TRUE(topic.poll("g", "A", 5).empty());
}

TEST(SpecPoll, MaxRecordsOneStepsThroughEveryRecord) {
  kgroups::Topic topic(2);
  append_to_partition(topic, 0, 2);
  append_to_partition(topic, 1, 1);
  topic.join("g", "A");
  EXPECT_EQ(partition_offsets(topic.poll("g", "A", 1)), spans({{0, 0, 1}}));
  EXPECT_EQ(partition_offsets(topic.poll("g", "A", 1)), spans({{0, 1, 2}}));
  EXPECT_EQ(partition_offsets(topic.poll("g", "A", 1)), spans({{1, 0, 1}}));
  EXPECT_TRUE(topic.poll("g", "A", 1).empty());
}

TEST(SpecPoll, DefaultMaxRecordsIsOneHundred) {
  kgroups::Topic topic(1);
  append_to_partition(topic, 0, 250);
  topic.join("g", "A");
  EXPECT_EQ(topic.poll("g", "A").size(), 100U);
  EXPECT_EQ(topic.poll("g", "A").size(), 100U);
  EXPECT_EQ(topic.poll("g", "A").size(), 50U);
}

TEST(SpecPoll, MaxRecordsZeroReturnsNothingAndMovesNothing) {
  kgroups::Topic topic(1);
  append_to_partition(topic, 0, 3);
  topic.join("g", "A");
  EXPECT_TRUE(topic.poll("g", "A", 0).empty());
  EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{0, 0, 3}}));
}

TEST(SpecPoll, NegativeMaxRecordsThrowsInvalidArgumentAndMovesNothing) {
  kgroups::Topic topic(1);
  append_to_partition(topic, 0, 3);
  topic.join("g", "A");
  EXPECT_THROW((void)topic.poll("g", "A", -1), std::invalid_argument);
  EXPECT_THROW((void)topic.poll("g", "A", INT32_MIN), std::invalid_argument);
  EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{0, 0, 3}}));
}

TEST(SpecPoll, ConsumerWithoutPartitionsGetsNothing) {
  kgroups::Topic topic(1);
  append_to_partition(topic, 0, 3);
  topic.join("g", "A");
  topic.join("g", "B");  // idle: one partition, two members
  ASSERT_TRUE(topic.assignment("g", "B").empty());
  EXPECT_TRUE(topic.poll("g", "B").empty());        // idle
  EXPECT_TRUE(topic.poll("g", "C").empty());        // non-member
  EXPECT_TRUE(topic.poll("unknown", "A").empty());  // unknown group
  // None of that touched A, nor created members.
  EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{0, 0, 3}}));
  EXPECT_TRUE(topic.assignment("unknown", "A").empty());
}

TEST(SpecPoll, PollCommitsNothing) {
  kgroups::Topic topic(2);
  append_to_partition(topic, 0, 3);
  append_to_partition(topic, 1, 3);
  topic.join("g", "A");
  ASSERT_EQ(topic.poll("g", "A").size(), 6U);
  EXPECT_EQ(topic.committed("g", 0), 0);
  EXPECT_EQ(topic.committed("g", 1), 0);
  topic.leave("g", "A");
  topic.join("g", "A");
  EXPECT_EQ(topic.poll("g", "A").size(), 6U);  // nothing was stored: all again
}

TEST(SpecPoll, RecordsAppendedAfterAPollComeInLaterPolls) {
  kgroups::Topic topic(2);
  topic.join("g", "A");
  EXPECT_TRUE(topic.poll("g", "A").empty());
  append_to_partition(topic, 1, 2);
  EXPECT_EQ(partition_offsets(topic.poll("g", "A")), spans({{1, 0, 2}}));
  EXPECT_TRUE(topic.poll("g", "A").empty());
  append_to_partition(topic, 0, 1);
  append_to_partition(topic, 1, 1, "later");
  const auto records = topic.poll("g", "A");
  EXPECT_EQ(partition_offsets(records), spans({{0, 0, 1}, {1, 2, 3}}));
  ASSERT_EQ(records.size(), 2U);
  EXPECT_EQ(records[1].value, "later0");
}

TEST(SpecRecordBytes, AppendCopiesKeyAndValue) {
  kgroups::Topic topic(1);
  std::string key = "the-key";
  std::string value = "the-value";
  topic.append(key, value);
  key.assign(key.size(), '#');  // overwrite the caller's buffers in place
  value.assign(value.size(), '#');
  key.clear();
  value.clear();
  topic.join("g", "A");
  const auto records = topic.poll("g", "A");
  ASSERT_EQ(records.size(), 1U);
  EXPECT_EQ(records[0].key, "the-key");
  EXPECT_EQ(records[0].value, "the-value");
}

TEST(SpecRecordBytes, RecordViewsStayValidWhileTheTopicLives) {
  kgroups::Topic topic(2);
  topic.join("g", "A");
  std::vector<kgroups::Record> kept;
  std::vector<OwnedRecord> expected;
  // Grow the logs far past any first chunk, polling as we go, with rebalances in between.
  for (int round = 0; round < 50; ++round) {
    for (int i = 0; i < 200; ++i) {
      const std::string text = std::to_string(round) + "/" + std::to_string(i);
      topic.append("key " + text, "value " + text + std::string(i % 97, '.'));
    }
    for (const kgroups::Record& record : topic.poll("g", "A", 10'000)) {
      kept.push_back(record);
      expected.push_back(kgroups_spec::own({record})[0]);
    }
    topic.commit("g", "A");
    topic.join("g", "B" + std::to_string(round));
    topic.leave("g", "B" + std::to_string(round));
  }
  ASSERT_EQ(kept.size(), 10'000U);
  EXPECT_EQ(kgroups_spec::own(kept), expected);
}

TEST(SpecRecordBytes, PolledRecordsAreTheAppendedBytes) {
  kgroups::Topic topic(3);
  std::vector<std::vector<OwnedRecord>> appended(3);
  for (int i = 0; i < 60; ++i) {
    const std::string key = "k" + std::to_string(i % 11);
    const std::string value = std::string("\0v", 2) + std::to_string(i);
    const auto [p, offset] = topic.append(key, value);
    appended[p].push_back({p, offset, key, value});
  }
  topic.join("g", "A");
  std::vector<OwnedRecord> expected;
  for (const auto& partition : appended)
    expected.insert(expected.end(), partition.begin(), partition.end());
  EXPECT_EQ(poll_all(topic, "g", "A"), expected);
}

TEST(SpecRecordBytes, EncodingTagsRoundTrip) {
  using kgroups::Encoding;
  kgroups::Topic topic(1);
  topic.append("k0", "v0");  // default tags: bytes
  topic.append("k1", "v1", Encoding::kText, Encoding::kBytes);
  topic.append("k2", "v2", Encoding::kBytes, Encoding::kText);
  topic.append("k3", "v3", Encoding::kText, Encoding::kText);
  topic.join("g", "A");
  const auto records = topic.poll("g", "A");
  ASSERT_EQ(records.size(), 4U);
  const Encoding expected_key[] = {Encoding::kBytes, Encoding::kText, Encoding::kBytes,
                                   Encoding::kText};
  const Encoding expected_value[] = {Encoding::kBytes, Encoding::kBytes, Encoding::kText,
                                     Encoding::kText};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(records[i].key, "k" + std::to_string(i));
    EXPECT_EQ(records[i].key_encoding, expected_key[i]) << "record " << i;
    EXPECT_EQ(records[i].value_encoding, expected_value[i]) << "record " << i;
  }
}

}  // namespace
