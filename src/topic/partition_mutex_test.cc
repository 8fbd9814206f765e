// SPDX-License-Identifier: Apache-2.0
#include "topic/partition_mutex.h"

#include <gtest/gtest.h>

#include <mutex>
#include <thread>
#include <vector>

namespace kgroups {
namespace {

TEST(PartitionMutex, ExcludesConcurrentHoldersAndWakesSleepers) {
  PartitionMutex mutex;
  std::int64_t counter = 0;  // guarded by mutex; a lost update shows a broken lock
  constexpr int kThreads = 4;
  constexpr int kIncrements = 20000;
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kIncrements; ++i) {
        const std::lock_guard lock(mutex);
        const std::int64_t seen = counter;
        if (i % 1000 == 0) std::this_thread::yield();  // force contention and sleeping
        counter = seen + 1;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(counter, std::int64_t{kThreads} * kIncrements);
}

}  // namespace
}  // namespace kgroups
