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

struct TopicOptions {
  std::string partitioner = "fnv1a";
  std::string assignor = "range";
  std::string auto_offset_reset = "earliest";

  friend bool operator==(const TopicOptions&, const TopicOptions&) = default;
};

}  // namespace kgroups
