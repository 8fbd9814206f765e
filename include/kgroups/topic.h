// SPDX-License-Identifier: Apache-2.0
//
// Topic: one topic of Kafka's consumer-group model, exactly as SPEC.md states it:
// partitions that are append-only logs, and any number of consumer groups that
// split the partitions with the range assignor, track positions and committed
// offsets, and rebalance eagerly on every join and leave. TopicOptions choose
// another partitioner, assignor (with cooperative rebalancing) or
// auto.offset.reset policy (SPEC.md, "Options"); the defaults are the lab's.
//
// Thread-safety: a Topic is safe for concurrent access from multiple threads
// without any external synchronization, and every call is atomic. Appends to
// different partitions run in parallel; calls on one group are serialized.
//
// Errors: every method either succeeds or throws before changing anything, so a
// throwing call leaves the Topic exactly as it was.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "kgroups/rebalance.h"
#include "kgroups/record.h"
#include "kgroups/share_record.h"
#include "kgroups/topic_options.h"

namespace kgroups {

inline constexpr int kDefaultMaxRecords = 100;

class Topic {
 public:
  // A new empty topic. Throws std::invalid_argument if num_partitions < 1.
  explicit Topic(int num_partitions);

  // A new empty topic with the given options. Throws std::invalid_argument if
  // num_partitions < 1 or an option names no known choice.
  Topic(int num_partitions, const TopicOptions& options);
  ~Topic();

  // Not copyable. Movable: records polled before the move stay valid; a
  // moved-from Topic may only be destroyed or assigned to.
  Topic(const Topic&) = delete;
  Topic& operator=(const Topic&) = delete;
  Topic(Topic&&) noexcept;
  Topic& operator=(Topic&&) noexcept;

  [[nodiscard]] int num_partitions() const noexcept;
  [[nodiscard]] const TopicOptions& options() const noexcept;

  // Copies the record into partition p = partition_for(key, num_partitions(),
  // options().partitioner) at
  // offset end_offset(p) and returns (p, offset). The encodings are tags kept for
  // bindings (see record.h); the bytes are stored as given either way.
  std::pair<int, std::int64_t> append(std::string_view key, std::string_view value,
                                      Encoding key_encoding = Encoding::kBytes,
                                      Encoding value_encoding = Encoding::kBytes);

  // The offset the next record appended to `partition` will get (its record
  // count). Throws std::out_of_range for a partition outside 0..num_partitions()-1.
  [[nodiscard]] std::int64_t end_offset(int partition) const;

  // Adds the consumer to the group (creating the group) and rebalances it:
  // eagerly every member restarts every partition from the group's committed
  // offset; cooperatively only the partitions that move do. A partition with no
  // committed offset starts where auto_offset_reset says. Does nothing if the
  // consumer is already a member.
  void join(std::string_view group, std::string_view consumer);

  // Removes the consumer from the group and rebalances it. Does nothing if the
  // consumer is not a member. The group keeps its committed offsets.
  void leave(std::string_view group, std::string_view consumer);

  // The consumer's partitions in ascending order; empty for an idle consumer,
  // a non-member or an unknown group.
  [[nodiscard]] std::vector<int> assignment(std::string_view group,
                                            std::string_view consumer) const;

  // Up to max_records records from the consumer's partitions, partitions in
  // ascending order and each from the consumer's position on, which advances
  // past what is returned. Commits nothing. Empty for a consumer with no
  // partitions. Throws std::invalid_argument if max_records < 0, then
  // NoOffsetError (under auto_offset_reset "none") if some of the consumer's
  // partitions have no position and the group no committed offset for them.
  // The records view the log and stay valid while this Topic lives.
  [[nodiscard]] std::vector<Record> poll(std::string_view group, std::string_view consumer,
                                         int max_records = kDefaultMaxRecords);

  // Stores the consumer's position on each of its partitions as the group's
  // committed offset. An idle consumer or a non-member commits nothing, nor
  // does a partition without a position (auto_offset_reset "none").
  void commit(std::string_view group, std::string_view consumer);

  // Stores the given {partition: offset} map as the group's committed offsets.
  // Throws NotAssignedError if a named partition is not assigned to the
  // consumer now (a partition outside the topic never is), then
  // std::invalid_argument if an offset is outside 0..end_offset(partition);
  // either way nothing is committed. An empty map commits nothing.
  void commit(std::string_view group, std::string_view consumer,
              const std::map<int, std::int64_t>& offsets);

  // The group's committed offset for `partition`, 0 if it has none (also for a
  // group that never existed). Throws std::out_of_range for a partition outside
  // 0..num_partitions()-1.
  [[nodiscard]] std::int64_t committed(std::string_view group, int partition) const;

  // {partition: end_offset(partition) - committed(group, partition)} for every
  // partition (also for a group that never existed).
  [[nodiscard]] std::map<int, std::int64_t> lag(std::string_view group) const;

  // The group's rebalances, oldest first: the most recent kRebalanceHistory of
  // them (generations keep counting past the ones dropped). Empty for a group
  // that never existed.
  [[nodiscard]] std::vector<Rebalance> rebalances(std::string_view group) const;
  static constexpr std::size_t kRebalanceHistory = 1000;

  // ---- Share groups (SPEC.md, "Share groups"; Kafka's KIP-932 queues) ----
  // A share group's members do not own partitions: several read one partition, each record
  // is acquired by one member under a lock that expires, and the member acknowledges it.
  // Share groups and consumer groups have one namespace: a name used by one kind cannot be
  // used by the other (std::invalid_argument).

  // Adds the member to the share group (creating the group) and reassigns the group with
  // Kafka's simple share assignor. A partition assigned to the group for the first time
  // starts at share_auto_offset_reset. Does nothing if the member is already in the group.
  void share_join(std::string_view group, std::string_view member);

  // Removes the member (a clean leave or a crash: the same here) and releases every record
  // it holds, which becomes available to the others, or archived at the delivery-count
  // limit. Does nothing for a non-member.
  void share_leave(std::string_view group, std::string_view member);

  // The member's partitions in ascending order (several members may share one); empty for a
  // non-member or an unknown group.
  [[nodiscard]] std::vector<int> share_assignment(std::string_view group,
                                                  std::string_view member) const;

  // Acquires up to max_records records for the member from its partitions, in ascending
  // partition order, each partition oldest available record first and then new records,
  // and locks them until now + record_lock_duration_ms. Locks that ran out first release
  // their records. Throws std::invalid_argument if max_records < 0 or the member is not in
  // the group. The records view the log and stay valid while this Topic lives.
  [[nodiscard]] std::vector<ShareRecord> share_poll(std::string_view group, std::string_view member,
                                                    int max_records = kDefaultMaxRecords);

  // Accepts, releases or rejects the records at {partition, offset} that the member holds.
  // Throws NotAcquiredError, changing nothing, if one of them is not held by the member now;
  // std::invalid_argument for kGap (the wire's value, not the model's).
  void acknowledge(std::string_view group, std::string_view member,
                   const std::vector<std::pair<int, std::int64_t>>& records, AcknowledgeType type);
  // The same for every record the member holds now (Kafka's implicit acknowledgement).
  void acknowledge(std::string_view group, std::string_view member, AcknowledgeType type);

  // Moves the Topic's clock (milliseconds, starting at 0) forward; acquisition locks that run
  // out by then release their records. Throws std::invalid_argument if milliseconds < 0.
  void advance_clock(std::int64_t milliseconds);
  [[nodiscard]] std::int64_t clock() const noexcept;

  // The share-partition start offset: every record below it is accepted, rejected or
  // archived. For a partition the group was never assigned: what share_auto_offset_reset
  // would give it now. Throws std::out_of_range for a partition outside the topic.
  [[nodiscard]] std::int64_t share_start_offset(std::string_view group, int partition) const;

  // A share-partition's records in flight by state, and its totals (for learning and tests).
  struct SharePartitionState {
    std::int64_t start_offset = 0;
    std::int64_t end_offset = 0;  // the first offset never acquired
    std::int64_t available = 0;
    std::int64_t acquired = 0;
    std::int64_t acknowledged = 0;  // accepted and still above the start offset
    std::int64_t archived = 0;      // rejected or archived, still above the start offset
    std::int64_t deliveries = 0;
    std::int64_t redeliveries = 0;
  };
  [[nodiscard]] SharePartitionState share_partition_state(std::string_view group,
                                                          int partition) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kgroups
