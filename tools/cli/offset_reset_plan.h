// SPDX-License-Identifier: Apache-2.0
//
// The plan of `kgroups groups reset-offsets`: for each chosen partition, the offset the
// group will commit, from --to-earliest, --to-latest or --to-offset N. As Kafka's tool does,
// an offset outside the partition's [earliest, latest] range is moved to the nearer end.
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "kafka_client/admin_client.h"

namespace kgroups::cli {

struct ResetTarget {
  enum class Kind { kEarliest, kLatest, kOffset };
  Kind kind = Kind::kEarliest;
  std::int64_t offset = 0;  // kOffset only
};

struct PlannedReset {
  TopicPartitionId partition;
  std::optional<std::int64_t> current_offset;  // the committed offset now; none: nothing
  std::int64_t new_offset = 0;
};

// One entry per partition, in the given order. `earliest` and `latest` must hold every
// partition.
std::vector<PlannedReset> plan_offset_reset(const std::vector<TopicPartitionId>& partitions,
                                            const PartitionOffsets& committed,
                                            const PartitionOffsets& earliest,
                                            const PartitionOffsets& latest, ResetTarget target);

}  // namespace kgroups::cli
