// SPDX-License-Identifier: Apache-2.0
#include "broker/config/memory_plan.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace kgroups::broker {
namespace {

TEST(MemoryPlan, DefaultsShareAQuarterOfTheMachineAndAddUpToTheBudget) {
  const std::int64_t machine = std::int64_t{16} << 30;
  const MemoryPlan plan = resolve_memory_plan(BrokerConfig{}, machine);
  EXPECT_EQ(plan.total_bytes, machine / 4);
  EXPECT_EQ(plan.request_bytes, plan.total_bytes / 8);
  EXPECT_EQ(plan.response_bytes, plan.total_bytes / 8);
  EXPECT_EQ(plan.group_bytes, plan.total_bytes / 16);
  EXPECT_EQ(plan.request_bytes + plan.response_bytes + plan.group_bytes + plan.fixed_bytes +
                plan.log_bytes,
            plan.total_bytes);
  EXPECT_GT(plan.log_bytes, plan.total_bytes / 2);
}

TEST(MemoryPlan, ExplicitSharesAreTakenAsGiven) {
  BrokerConfig config;
  config.max_memory_bytes = 512 * kMiB;
  config.queued_max_request_bytes = 16 * kMiB;
  config.max_unsent_bytes = 24 * kMiB;
  const MemoryPlan plan = resolve_memory_plan(config, std::int64_t{64} << 30);
  EXPECT_EQ(plan.total_bytes, 512 * kMiB);
  EXPECT_EQ(plan.request_bytes, 16 * kMiB);
  EXPECT_EQ(plan.response_bytes, 24 * kMiB);
  EXPECT_EQ(plan.uncompressed_batch_bytes, 32 * kMiB);  // max-memory / 16 < 64 MiB
  EXPECT_EQ(plan.log_bytes, 512 * kMiB - 16 * kMiB - 24 * kMiB - 32 * kMiB - plan.fixed_bytes);
}

// With --brokers N > 1 every partition's replica states and leader-epoch cache are reserved;
// one broker's plan is unchanged.
TEST(MemoryPlan, ReplicasAndLeaderEpochsAreReservedPerPartitionInACluster) {
  const std::int64_t machine = std::int64_t{16} << 30;
  BrokerConfig one;
  BrokerConfig three;
  three.brokers = 3;
  const MemoryPlan single = resolve_memory_plan(one, machine);
  const MemoryPlan cluster = resolve_memory_plan(three, machine);
  EXPECT_EQ(replication_bytes_per_partition(1), 0);
  EXPECT_EQ(replication_bytes_per_partition(3),
            3 * kBytesPerReplica + kMaxLeaderEpochsKept * kBytesPerLeaderEpoch);
  EXPECT_EQ(cluster.fixed_bytes - single.fixed_bytes,
            static_cast<std::int64_t>(three.max_partitions) * replication_bytes_per_partition(3));
  EXPECT_EQ(single.log_bytes - cluster.log_bytes, cluster.fixed_bytes - single.fixed_bytes);
}

TEST(MemoryPlan, ABudgetTooSmallForRecordsIsRefusedSayingWhatToChange) {
  BrokerConfig config;
  config.max_memory_bytes = 64 * kMiB;
  try {
    (void)resolve_memory_plan(config, std::int64_t{64} << 30);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("--max-memory 64.0 MiB"), std::string::npos) << message;
    EXPECT_NE(message.find("raise --max-memory"), std::string::npos) << message;
  }
  config.max_memory_bytes = 112 * kMiB;
  config.max_partitions = 1000;  // less bookkeeping to reserve: now it fits
  config.max_topics = 100;
  EXPECT_GE(resolve_memory_plan(config, std::int64_t{64} << 30).log_bytes, kMinLogBytes);
}

TEST(MemoryPlan, FormatsBytesForPeople) {
  EXPECT_EQ(format_bytes(900), "900 B");
  EXPECT_EQ(format_bytes(1536), "1.5 KiB");
  EXPECT_EQ(format_bytes(512 * kMiB), "512.0 MiB");
  EXPECT_EQ(format_bytes(std::int64_t{6} << 30), "6.0 GiB");
}

TEST(MemoryPlan, TheMachineHasSomeMemory) { EXPECT_GT(machine_memory_bytes(), 64 * kMiB); }

}  // namespace
}  // namespace kgroups::broker
