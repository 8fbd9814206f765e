// SPDX-License-Identifier: Apache-2.0
//
// Which partition of __consumer_offsets holds a group: Kafka's
// Utils.abs(groupId.hashCode()) % offsets.topic.num.partitions, where hashCode is Java's
// String.hashCode (h = 31 * h + c over the UTF-16 code units, wrapping in 32 bits) and
// Utils.abs maps Integer.MIN_VALUE to 0. Group ids arrive as UTF-8; a byte that does not
// start a valid UTF-8 sequence counts as U+FFFD, as Java's decoder replaces it.
// Thread-safe: pure functions.
#pragma once

#include <cstdint>
#include <string_view>

namespace kgroups::broker {

// Java's String.hashCode of the string whose UTF-8 bytes are `utf8`.
std::int32_t java_string_hash(std::string_view utf8);

// The partition of __consumer_offsets (of `partitions` >= 1) that holds `group_id`.
std::int32_t offsets_partition_for(std::string_view group_id, std::int32_t partitions);

}  // namespace kgroups::broker
