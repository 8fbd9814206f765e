// SPDX-License-Identifier: Apache-2.0
//
// FetchPartitionRead: what one partition of a Fetch answers, read from its BatchLog: whole
// stored batches from the fetch offset within the byte limits, up to the high watermark
// (read_uncommitted) or the last stable offset (read_committed), and for read_committed the
// aborted transactions overlapping what is sent (Fetch's aborted_transactions), which a
// consumer needs to skip aborted records. FetchService calls it for each partition on every
// (re)collect of a fetch.
// Allocates nothing for a partition without aborted transactions in the fetched range; the
// response's list gets exactly the overlapping ones otherwise. Not thread-safe: the broker's
// network thread owns every BatchLog.
#pragma once

#include <limits>

#include <cstddef>
#include <cstdint>

#include "broker/services/fetch_session_cache.h"
#include "broker/storage/batch_log.h"
#include "broker/storage/isolation_level.h"
#include "protocol/messages/fetch.h"

namespace kgroups::broker {

// The byte limits of one fetch.
struct FetchReadLimits {
  std::size_t response_bytes = 0;  // the request's max_bytes, at most --fetch-max-bytes
  std::size_t memory_bytes = 0;    // room left in the broker's share for unsent responses
};

// Running totals over the partitions of one fetch, in request order.
struct FetchReadTotals {
  std::size_t record_bytes = 0;  // bytes of batches in the response so far
  bool has_error = false;        // some partition has an error: answer at once
  bool short_of_memory = false;  // a batch was left out only for lack of memory
};

// Fills `out` (a default-constructed partition) for `params` read from `log`, at
// `isolation`, and adds to `totals`. Batches are whole: they are added while they fit the
// partition's and the response's limits, except that the first batch of the whole response is
// always added (KIP-74); none is added beyond memory_bytes. A fetch offset outside
// [log start, high watermark] gets OFFSET_OUT_OF_RANGE (sets has_error). Fills
// high_watermark, last_stable_offset and log_start_offset; aborted_transactions is null
// for read_uncommitted and on errors, else a list (empty when none overlaps). `out.records`
// view the log's batches: use them before the log changes.
// `high_watermark_limit` caps the high watermark answered and read up to (a stale leader's
// frozen one).
void read_fetch_partition(
    const BatchLog& log, const FetchPartitionParams& params, IsolationLevel isolation,
    const FetchReadLimits& limits, FetchReadTotals& totals, protocol::FetchResponse::Partition& out,
    std::int64_t high_watermark_limit = std::numeric_limits<std::int64_t>::max());

}  // namespace kgroups::broker
