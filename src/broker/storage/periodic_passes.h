// SPDX-License-Identifier: Apache-2.0
//
// The storage's periodic passes, which the node runs on PeriodicTasks
// (runtime/periodic_task.h):
// - retention by time: each topic's retention.ms applied to every partition of the Cluster,
//   once per --log-retention-check-interval-ms (retention by size needs no timer:
//   Cluster::append applies it);
// - log compaction: one budgeted LogCleaner pass (--log-cleaner-bytes-per-pass) per
//   --log-cleaner-interval-ms, and while a cleaning is under way the next pass at once, so
//   one large log never holds the network thread longer than a pass.
// Each logs what it dropped or finished.
// Not thread-safe: runs on the broker's network thread.
#pragma once

#include "broker/runtime/periodic_task.h"
#include "broker/storage/cluster.h"
#include "broker/storage/log_cleaner.h"

namespace kgroups::broker {

// Applies retention.ms at the wall clock's time; always kDone.
PassOutcome retention_pass(Cluster& cluster);

// Runs one pass of `cleaner` over `cluster` at the wall clock's time; kMoreWork while a
// cleaning is under way.
PassOutcome log_cleaner_pass(LogCleaner& cleaner, Cluster& cluster);

}  // namespace kgroups::broker
