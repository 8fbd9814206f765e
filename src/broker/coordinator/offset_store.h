// SPDX-License-Identifier: Apache-2.0
//
// OffsetStore: the committed offsets of one group, by topic and partition. A
// partition nobody committed reads as offset -1 with empty metadata, as Kafka's
// OffsetFetch answers it. It counts its stored bytes (stored_bytes.h) as it goes.
// Not thread-safe; owned by its ClassicGroup.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace kgroups::broker {

struct TopicPartition {
  std::string topic;
  std::int32_t partition = 0;

  bool operator==(const TopicPartition&) const = default;
  // Orders by topic, then partition.
  bool operator<(const TopicPartition& other) const {
    return std::tie(topic, partition) < std::tie(other.topic, other.partition);
  }
};

struct CommittedOffset {
  std::int64_t offset = -1;               // the next offset to consume; -1: nothing committed
  std::string metadata;                   // the client's free-form string, stored as given
  std::int32_t leader_epoch = -1;         // the client's committed leader epoch; -1: none given
  std::int64_t commit_timestamp_ms = -1;  // wall clock when stored (ms since the epoch); -1: unset

  bool operator==(const CommittedOffset&) const = default;
};

// One partition's committed offset, as OffsetCommit takes and OffsetFetch returns it.
struct PartitionOffset {
  TopicPartition topic_partition;
  CommittedOffset committed;

  bool operator==(const PartitionOffset&) const = default;
};

class OffsetStore {
 public:
  // Stores `committed` for the partition, replacing what was there.
  void commit(const TopicPartition& topic_partition, CommittedOffset committed);

  // Returns the partition's committed offset, or {-1, ""} if none was committed.
  [[nodiscard]] CommittedOffset fetch(const TopicPartition& topic_partition) const;

  // Returns every committed partition, ordered by topic, then partition.
  [[nodiscard]] std::vector<PartitionOffset> fetch_all() const;

  // Returns by how many bytes commit(topic_partition, committed) would grow
  // stored_bytes() (0 if it would not grow).
  [[nodiscard]] std::size_t growth_bytes(const TopicPartition& topic_partition,
                                         const CommittedOffset& committed) const;

  // Returns the bytes the committed offsets take (stored_bytes.h), kept as they change.
  [[nodiscard]] std::size_t stored_bytes() const { return stored_bytes_; }

  // Forgets the partition's committed offset; returns whether there was one.
  bool remove(const TopicPartition& topic_partition);

  // Forgets the committed offsets of every partition of `topic`; returns how many there
  // were. O(log n + removed).
  std::size_t remove_topic(std::string_view topic);

  // Whether some partition of `topic` has a committed offset. O(log n).
  [[nodiscard]] bool has_topic(std::string_view topic) const;

  [[nodiscard]] bool empty() const { return offsets_.empty(); }

 private:
  std::map<TopicPartition, CommittedOffset> offsets_;
  std::size_t stored_bytes_ = 0;  // sum of offset_entry_bytes() over offsets_
};

}  // namespace kgroups::broker
