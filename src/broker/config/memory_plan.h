// SPDX-License-Identifier: Apache-2.0
//
// MemoryPlan: how kgroupsd shares its memory budget (--max-memory) out. Each share has its
// own bound, enforced where the memory is spent, so that together they never exceed the
// budget: requests being received (Connection), responses not yet sent (Connection, and
// Fetch's record bytes), what groups keep (the group coordinator, and the ACLs beside them),
// the fixed cost of the process and of topic and partition bookkeeping (bounded by
// --max-topics and --max-partitions), and, with the rest, stored record batches (Cluster
// evicts the oldest segments beyond it).
// Thread-safe: plain values and pure functions.
#pragma once

#include <cstdint>
#include <string>

#include "broker/config/broker_config.h"

namespace kgroups::broker {

struct MemoryPlan {
  std::int64_t total_bytes = 0;               // --max-memory, resolved
  std::int64_t request_bytes = 0;             // requests being received, all connections
  std::int64_t response_bytes = 0;            // responses not yet sent, all connections
  std::int64_t group_bytes = 0;               // what the group coordinator and the ACLs keep
  std::int64_t fixed_bytes = 0;               // the process, bookkeeping, the decompression buffer
  std::int64_t uncompressed_batch_bytes = 0;  // largest decompressed batch (part of fixed)
  std::int64_t cleaner_map_bytes = 0;         // the log cleaner's key map (part of fixed)
  std::int64_t cleaner_batch_bytes = 0;       // one batch the cleaner unpacks (see below)
  std::int64_t log_bytes = 0;                 // stored record batches (segment capacity)

  // One line for the start-up log, e.g. "memory budget 6.0 GiB: records 4.1 GiB, ...".
  [[nodiscard]] std::string describe() const;
};

// Reserved per partition and per topic beyond the segments (the BatchLog, index growth,
// names; group offsets kept for it are the coordinator's), and per connection.
inline constexpr std::int64_t kFixedProcessBytes = 32 * kMiB;
inline constexpr std::int64_t kBytesPerPartition = 256;
inline constexpr std::int64_t kBytesPerTopic = 1024;
// With --brokers N > 1, each partition also keeps the state of its replicas (at most N) and
// its leader-epoch cache (at most kMaxLeaderEpochsKept entries: elections a client causes with
// ElectLeaders or reassignments cannot grow it further); replication_bytes_per_partition()
// reserves both. One broker's single replica and epoch fit in kBytesPerPartition.
inline constexpr std::int64_t kBytesPerReplica = 40;
inline constexpr std::int64_t kBytesPerLeaderEpoch = 16;
inline constexpr std::int64_t kMaxLeaderEpochsKept = 64;
[[nodiscard]] constexpr std::int64_t replication_bytes_per_partition(std::int32_t brokers) {
  return brokers > 1 ? brokers * kBytesPerReplica + kMaxLeaderEpochsKept * kBytesPerLeaderEpoch : 0;
}
// Fetch sessions hold at most --max-partitions partitions together (FetchSessionCache), each
// a list node with its key and a hash node viewing it: about 256 B with topic ids or names of
// up to 15 bytes (a longer name is allocated once more), so this is an estimate.
inline constexpr std::int64_t kFetchSessionBytesPerPartition = 256;
// A connection's own memory: its first receive buffer (16 KiB, taken even when the requests'
// share is full, so a connection can always be read), its coroutines and its state.
inline constexpr std::int64_t kBytesPerConnection = std::int64_t{20} * 1024;
// The default cap on a decompressed batch when max-memory / 16 is larger.
inline constexpr std::int64_t kMaxDefaultUncompressedBytes = 64 * kMiB;
// The log cleaner's working memory beside its key map: the batch it unpacks with its record
// index (at most cleaner_batch_bytes), the kept records re-encoded and compressed again
// (each at most as much): this many times cleaner_batch_bytes.
inline constexpr std::int64_t kCleanerBatchBuffers = 3;
// The defaults of the cleaner's bounds when max-memory / 32 (map) or / 64 (batch) is larger.
inline constexpr std::int64_t kMaxDefaultCleanerMapBytes = 16 * kMiB;
inline constexpr std::int64_t kMaxDefaultCleanerBatchBytes = 8 * kMiB;
// The smallest share of records the plan accepts.
inline constexpr std::int64_t kMinLogBytes = 8 * kMiB;

// The machine's memory: physical memory, or the cgroup's memory.max when that is lower.
std::int64_t machine_memory_bytes();

// Resolves the budget of `config` (0 fields take their defaults: max_memory a quarter of
// `machine_bytes`, requests and responses an eighth of it each, groups a sixteenth, the
// decompression buffer a sixteenth but at most kMaxDefaultUncompressedBytes, the cleaner's
// key map a 32nd but at most kMaxDefaultCleanerMapBytes and its batch a 64th but at most
// kMaxDefaultCleanerBatchBytes).
// Throws std::invalid_argument saying which setting to change when the shares leave less than
// kMinLogBytes for records.
MemoryPlan resolve_memory_plan(const BrokerConfig& config, std::int64_t machine_bytes);

// "512.0 MiB", "6.0 GiB", "900 B": for log lines and messages.
std::string format_bytes(std::int64_t bytes);

}  // namespace kgroups::broker
