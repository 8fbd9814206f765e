// SPDX-License-Identifier: Apache-2.0
//
// TopicOptions: the choices a Topic is built with (SPEC.md, "Options"): which
// partitioner places keyed records, which assignor splits a group's partitions
// (and with it eager or cooperative rebalancing), and where a group starts on a
// partition it never committed. The defaults are the lab's rules, so
// Topic(n, TopicOptions{}) behaves exactly like Topic(n).
//
// Values are strings, spelled as Kafka's clients spell them, so that every
// binding passes them through unchanged; Topic's constructor rejects an
// unknown value with std::invalid_argument naming the choices.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace kgroups {

// "fnv1a": SPEC.md's FNV-1a (the lab's); "murmur2": Kafka's default partitioner.
inline constexpr std::array<std::string_view, 2> kPartitionerChoices{"fnv1a", "murmur2"};

// "range" (the lab's, eager), "roundrobin" (eager), "sticky" (eager),
// "cooperative-sticky" (cooperative: members keep their positions on the
// partitions they keep).
inline constexpr std::array<std::string_view, 4> kAssignorChoices{"range", "roundrobin", "sticky",
                                                                  "cooperative-sticky"};

// Where a group starts on a partition it never committed: "earliest" (offset
// 0, the lab's), "latest" (the end offset when the partition is assigned),
// "none" (poll throws NoOffsetError).
inline constexpr std::array<std::string_view, 3> kAutoOffsetResetChoices{"earliest", "latest",
                                                                         "none"};

// Where a share group starts on a partition when it is first assigned to one of
// its members (share.auto.offset.reset): "latest" (the end offset then, Kafka's
// default) or "earliest" (offset 0).
inline constexpr std::array<std::string_view, 2> kShareAutoOffsetResetChoices{"latest", "earliest"};

struct TopicOptions {
  std::string partitioner = "fnv1a";
  std::string assignor = "range";
  std::string auto_offset_reset = "earliest";

  // Share groups (SPEC.md, "Share groups"), with Kafka's names and defaults.
  std::string share_auto_offset_reset = "latest";
  // group.share.record.lock.duration.ms: how long an acquired record stays locked to its
  // member, on the Topic's clock (advance_clock). At least 1.
  std::int64_t record_lock_duration_ms = 30'000;
  // group.share.delivery.count.limit: a record released at this many deliveries is archived.
  // 2..10.
  int delivery_count_limit = 5;
  // group.share.partition.max.record.locks: the most records in flight per partition and
  // share group. 100..10000.
  int partition_max_record_locks = 2'000;

  friend bool operator==(const TopicOptions&, const TopicOptions&) = default;
};

}  // namespace kgroups
