// SPDX-License-Identifier: Apache-2.0
//
// ShareLimits: the settings a share group's partitions obey (SPEC.md, "Share
// groups"), with Kafka's names and defaults: how long an acquired record stays
// locked to its member, how many deliveries a record gets before it is archived,
// and how many records one share-partition keeps in flight. The model and
// kgroupsd read the same struct.
#pragma once

#include <cstdint>

namespace kgroups::share {

struct ShareLimits {
  // group.share.record.lock.duration.ms
  std::int64_t record_lock_duration_ms = 30'000;
  // group.share.delivery.count.limit (Kafka accepts 2..10)
  int delivery_count_limit = 5;
  // group.share.partition.max.record.locks (Kafka 4.1+; accepts 100..10000): the most records
  // between a share-partition's start offset and end offset, whatever their state.
  int partition_max_record_locks = 2'000;
};

inline constexpr int kMinDeliveryCountLimit = 2;
inline constexpr int kMaxDeliveryCountLimit = 10;
inline constexpr int kMinPartitionMaxRecordLocks = 100;
inline constexpr int kMaxPartitionMaxRecordLocks = 10'000;

}  // namespace kgroups::share
