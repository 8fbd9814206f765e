// SPDX-License-Identifier: Apache-2.0
//
// The rows of `kgroups groups describe`: one per partition the group has committed or has
// assigned to a member, with the committed offset, the partition's end offset, the lag
// between them and the member that owns it, as kafka-consumer-groups.sh --describe shows
// them. Pure functions over what the admin client fetched; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kafka_client/admin_client.h"

namespace kgroups::cli {

struct GroupLagRow {
  TopicPartitionId partition;
  std::optional<std::int64_t> committed_offset;  // none: nothing committed
  std::optional<std::int64_t> end_offset;        // none: not known
  std::optional<std::int64_t> lag;               // end - committed; none without both
  std::string member_id;                         // empty: no member owns the partition
  std::string client_id;
  std::string host;
};

// The partitions the group has committed offsets for or has assigned, ascending.
std::vector<TopicPartitionId> group_partitions(const GroupDescription& group,
                                               const PartitionOffsets& committed);

// One row per group_partitions() entry, in the same order. Lag is never negative: a
// committed offset past the end (a truncated log) shows lag 0.
std::vector<GroupLagRow> group_lag_rows(const GroupDescription& group,
                                        const PartitionOffsets& committed,
                                        const PartitionOffsets& end_offsets);

}  // namespace kgroups::cli
