// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/completion_queue.h"

#include <gtest/gtest.h>

#include <string>

namespace kgroups::broker {
namespace {

TEST(CompletionQueue, RunsCompletionsInTheOrderTheyWereQueued) {
  CompletionQueue queue;
  std::string ran;
  queue.enqueue([&ran] { ran += "a"; });
  queue.enqueue([&ran] { ran += "b"; });
  EXPECT_EQ(ran, "");
  queue.run();
  EXPECT_EQ(ran, "ab");
  queue.run();
  EXPECT_EQ(ran, "ab") << "each completion runs once";
}

TEST(CompletionQueue, WhatACompletionQueuesRunsInTheSameLoopAfterTheOthers) {
  CompletionQueue queue;
  std::string ran;
  queue.enqueue([&] {
    ran += "a";
    queue.enqueue([&ran] { ran += "c"; });
    queue.run();  // called back in: the outer run goes on
    ran += "!";
  });
  queue.enqueue([&ran] { ran += "b"; });
  queue.run();
  EXPECT_EQ(ran, "a!bc");
}

}  // namespace
}  // namespace kgroups::broker
