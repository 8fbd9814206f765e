// SPDX-License-Identifier: Apache-2.0
#include "broker/config/memory_plan.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace kgroups::broker {
namespace {

// cgroup v2's memory.max: a number of bytes, or "max" (no limit), or absent.
std::int64_t cgroup_memory_limit() {
  std::ifstream file("/sys/fs/cgroup/memory.max");
  std::string text;
  if (!(file >> text) || text == "max") return 0;
  try {
    return std::stoll(text);
  } catch (const std::exception&) {
    return 0;
  }
}

}  // namespace

std::string format_bytes(std::int64_t bytes) {
  char text[32];
  const auto value = static_cast<double>(bytes);
  if (bytes >= (kMiB << 10)) {
    std::snprintf(text, sizeof text, "%.1f GiB", value / static_cast<double>(kMiB << 10));
  } else if (bytes >= kMiB) {
    std::snprintf(text, sizeof text, "%.1f MiB", value / static_cast<double>(kMiB));
  } else if (bytes >= 1024) {
    std::snprintf(text, sizeof text, "%.1f KiB", value / 1024.0);
  } else {
    std::snprintf(text, sizeof text, "%lld B", static_cast<long long>(bytes));
  }
  return text;
}

std::string MemoryPlan::describe() const {
  return "memory budget " + format_bytes(total_bytes) + ": records " + format_bytes(log_bytes) +
         ", requests " + format_bytes(request_bytes) + ", responses " +
         format_bytes(response_bytes) + ", groups " + format_bytes(group_bytes) +
         ", process and metadata " + format_bytes(fixed_bytes);
}

std::int64_t machine_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGESIZE);
  std::int64_t physical = pages > 0 && page_size > 0 ? static_cast<std::int64_t>(pages) * page_size
                                                     : std::int64_t{4096} * kMiB;
  const std::int64_t cgroup = cgroup_memory_limit();
  if (cgroup > 0) physical = std::min(physical, cgroup);
  return physical;
}

MemoryPlan resolve_memory_plan(const BrokerConfig& config, std::int64_t machine_bytes) {
  MemoryPlan plan;
  plan.total_bytes = config.max_memory_bytes > 0 ? config.max_memory_bytes : machine_bytes / 4;
  plan.request_bytes =
      config.queued_max_request_bytes > 0 ? config.queued_max_request_bytes : plan.total_bytes / 8;
  plan.response_bytes =
      config.max_unsent_bytes > 0 ? config.max_unsent_bytes : plan.total_bytes / 8;
  plan.group_bytes = plan.total_bytes / 16;
  plan.uncompressed_batch_bytes =
      config.max_uncompressed_batch_bytes > 0
          ? config.max_uncompressed_batch_bytes
          : std::min(kMaxDefaultUncompressedBytes, plan.total_bytes / 16);
  plan.cleaner_map_bytes = config.log_cleaner_dedupe_buffer_bytes > 0
                               ? config.log_cleaner_dedupe_buffer_bytes
                               : std::min(kMaxDefaultCleanerMapBytes, plan.total_bytes / 32);
  plan.cleaner_batch_bytes = config.log_cleaner_max_batch_bytes > 0
                                 ? config.log_cleaner_max_batch_bytes
                                 : std::min(kMaxDefaultCleanerBatchBytes, plan.total_bytes / 64);
  plan.fixed_bytes = kFixedProcessBytes + plan.uncompressed_batch_bytes + plan.cleaner_map_bytes +
                     kCleanerBatchBuffers * plan.cleaner_batch_bytes +
                     static_cast<std::int64_t>(config.max_partitions) *
                         (kBytesPerPartition + kFetchSessionBytesPerPartition +
                          replication_bytes_per_partition(config.brokers)) +
                     static_cast<std::int64_t>(config.max_topics) * kBytesPerTopic +
                     static_cast<std::int64_t>(config.max_connections) * kBytesPerConnection;
  plan.log_bytes = plan.total_bytes - plan.request_bytes - plan.response_bytes - plan.group_bytes -
                   plan.fixed_bytes;
  if (plan.log_bytes < kMinLogBytes) {
    throw std::invalid_argument(
        "--max-memory " + format_bytes(plan.total_bytes) + " leaves " +
        format_bytes(std::max<std::int64_t>(plan.log_bytes, 0)) + " for records after requests (" +
        format_bytes(plan.request_bytes) + "), responses (" + format_bytes(plan.response_bytes) +
        "), groups (" + format_bytes(plan.group_bytes) + "), decompression (" +
        format_bytes(plan.uncompressed_batch_bytes) + "), the log cleaner (" +
        format_bytes(plan.cleaner_map_bytes + kCleanerBatchBuffers * plan.cleaner_batch_bytes) +
        ") and bookkeeping for " + std::to_string(config.max_partitions) + " partitions and " +
        std::to_string(config.max_topics) + " topics (" + format_bytes(plan.fixed_bytes) +
        "); at least " + format_bytes(kMinLogBytes) +
        " is needed: raise --max-memory, or lower --queued-max-request-bytes, "
        "--max-unsent-bytes, --max-uncompressed-batch-bytes, --log-cleaner-dedupe-buffer-bytes, "
        "--log-cleaner-max-batch-bytes, --max-partitions, --max-topics or --max-connections");
  }
  return plan;
}

}  // namespace kgroups::broker
