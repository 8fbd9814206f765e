// SPDX-License-Identifier: Apache-2.0
//
// Whole-state comparison for the spec tests. A Topic's state is only visible
// through its API, so compare_whole_state checks everything a caller can see:
// end offsets, committed offsets and assignments of the named groups and
// consumers, and finally every consumer's positions, by polling each consumer
// of both topics until empty (which moves positions: call it last).
// Not thread-safe: use from the test's thread only.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "kgroups/kgroups.h"

namespace kgroups_spec {

// A polled record with its bytes copied out of the Topic.
struct OwnedRecord {
  int partition = 0;
  std::int64_t offset = 0;
  std::string key;
  std::string value;
  kgroups::Encoding key_encoding = kgroups::Encoding::kBytes;
  kgroups::Encoding value_encoding = kgroups::Encoding::kBytes;

  friend bool operator==(const OwnedRecord&, const OwnedRecord&) = default;
  friend std::ostream& operator<<(std::ostream& out, const OwnedRecord& record) {
    return out << "{p" << record.partition << " @" << record.offset << " key=\"" << record.key
               << "\" value=\"" << record.value << "\"}";
  }
};

inline std::vector<OwnedRecord> own(const std::vector<kgroups::Record>& records) {
  std::vector<OwnedRecord> owned;
  for (const kgroups::Record& record : records) {
    owned.push_back({record.partition, record.offset, std::string(record.key),
                     std::string(record.value), record.key_encoding, record.value_encoding});
  }
  return owned;
}

using PartitionOffset = std::pair<int, std::int64_t>;

// The (partition, offset) of each record, in order.
inline std::vector<PartitionOffset> partition_offsets(const std::vector<kgroups::Record>& records) {
  std::vector<PartitionOffset> result;
  for (const kgroups::Record& record : records)
    result.emplace_back(record.partition, record.offset);
  return result;
}

// Offsets from..to-1 of one partition.
struct Span {
  int partition;
  std::int64_t from;
  std::int64_t to;
};

// The (partition, offset) pairs of the spans, one span after another.
inline std::vector<PartitionOffset> spans(std::initializer_list<Span> spans) {
  std::vector<PartitionOffset> result;
  for (const Span& span : spans) {
    for (std::int64_t offset = span.from; offset < span.to; ++offset) {
      result.emplace_back(span.partition, offset);
    }
  }
  return result;
}

// Everything one consumer can still poll, in poll order (one big poll).
inline std::vector<OwnedRecord> poll_all(kgroups::Topic& topic, const std::string& group,
                                         const std::string& consumer) {
  return own(topic.poll(group, consumer, 1'000'000));
}

// Expects `actual` and `expected` to look the same through every call of the
// API, for the given groups and consumer ids. Polls both topics to the end.
inline void compare_whole_state(kgroups::Topic& actual, kgroups::Topic& expected,
                                const std::vector<std::string>& groups,
                                const std::vector<std::string>& consumers) {
  ASSERT_EQ(actual.num_partitions(), expected.num_partitions());
  for (int partition = 0; partition < expected.num_partitions(); ++partition) {
    EXPECT_EQ(actual.end_offset(partition), expected.end_offset(partition))
        << "partition " << partition;
    for (const std::string& group : groups) {
      EXPECT_EQ(actual.committed(group, partition), expected.committed(group, partition))
          << "group \"" << group << "\" partition " << partition;
    }
  }
  for (const std::string& group : groups) {
    for (const std::string& consumer : consumers) {
      EXPECT_EQ(actual.assignment(group, consumer), expected.assignment(group, consumer))
          << "group \"" << group << "\" consumer \"" << consumer << "\"";
    }
  }
  for (const std::string& group : groups) {
    for (const std::string& consumer : consumers) {
      EXPECT_EQ(poll_all(actual, group, consumer), poll_all(expected, group, consumer))
          << "positions of group \"" << group << "\" consumer \"" << consumer << "\"";
    }
  }
}

}  // namespace kgroups_spec
