// SPDX-License-Identifier: Apache-2.0
#include "broker/storage/periodic_passes.h"

#include <string>

#include "broker/config/memory_plan.h"
#include "broker/runtime/logger.h"

namespace kgroups::broker {

PassOutcome retention_pass(Cluster& cluster) {
  const DroppedSegments dropped = cluster.apply_time_retention(wall_clock_ms());
  if (dropped.segments > 0) {
    log_info("retention.ms: dropped " + std::to_string(dropped.segments) + " segment(s), " +
             format_bytes(static_cast<std::int64_t>(dropped.memory_bytes)) + ", from " +
             std::to_string(dropped.partitions) + " partition(s)");
  }
  return PassOutcome::kDone;
}

PassOutcome log_cleaner_pass(LogCleaner& cleaner, Cluster& cluster) {
  const CleanerPass pass = cleaner.run_pass(cluster, wall_clock_ms());
  if (pass.partitions_cleaned > 0) {
    std::string kept_whole;
    if (pass.batches_kept_whole > 0) {
      kept_whole = "; " + std::to_string(pass.batches_kept_whole) +
                   " batch(es) were kept whole, uncleaned: their records unpack to more than "
                   "--log-cleaner-max-batch-bytes";
    }
    log_info("log cleaner: finished cleaning " + std::to_string(pass.partitions_cleaned) +
             " partition(s); this pass rewrote " + std::to_string(pass.segments_cleaned) +
             " segment(s) and freed " + format_bytes(pass.memory_freed) + kept_whole);
  }
  return pass.more_work ? PassOutcome::kMoreWork : PassOutcome::kDone;
}

}  // namespace kgroups::broker
