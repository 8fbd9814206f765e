// SPDX-License-Identifier: Apache-2.0
#include "broker/runtime/periodic_task.h"

#include <gtest/gtest.h>

#include <asio/io_context.hpp>
#include <chrono>

namespace kgroups::broker {
namespace {

TEST(PeriodicTask, RunsPassAfterPassUntilTheIoContextStops) {
  asio::io_context io;
  int passes = 0;
  PeriodicTask task(std::chrono::milliseconds(1), [&] {
    if (++passes == 3) io.stop();
    return PassOutcome::kDone;
  });
  task.start(io.get_executor());
  io.run();
  EXPECT_EQ(passes, 3);

  // Stopped: however long the context is polled again, no pass runs until it is restarted.
  io.restart();
  io.poll();
  EXPECT_EQ(passes, 3);
}

TEST(PeriodicTask, APassWithWorkLeftIsFollowedAtOnce) {
  asio::io_context io;
  constexpr int kPasses = 100;
  constexpr auto kInterval = std::chrono::milliseconds(20);
  int passes = 0;
  PeriodicTask task(kInterval, [&] {
    if (++passes == kPasses) io.stop();
    return PassOutcome::kMoreWork;
  });
  const auto started = std::chrono::steady_clock::now();
  task.start(io.get_executor());
  io.run();
  EXPECT_EQ(passes, kPasses);
  // Only the first pass waits the interval. Had each waited it, the passes would have taken
  // 2 s; the bound is half of that, far above what 100 empty passes take.
  EXPECT_LT(std::chrono::steady_clock::now() - started, kPasses * kInterval / 2);
}

}  // namespace
}  // namespace kgroups::broker
