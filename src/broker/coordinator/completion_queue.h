// SPDX-License-Identifier: Apache-2.0
//
// CompletionQueue: the answers to parked calls (a JoinGroup or SyncGroup waiting for its
// rebalance), queued while the coordinator changes its state and run once it is consistent,
// in the order they were queued. A completion may call the coordinator again: what that
// call queues runs in the same loop, after the completions queued before it.
// Not thread-safe; owned by its coordinator.
#pragma once

#include <deque>
#include <functional>

namespace kgroups::broker {

class CompletionQueue {
 public:
  void enqueue(std::function<void()> completion) { completions_.push_back(std::move(completion)); }

  // Runs every queued completion, those they queue included; does nothing when called
  // from inside a completion (the outer run goes on with what it queues).
  void run();

 private:
  std::deque<std::function<void()>> completions_;
  bool running_ = false;
};

}  // namespace kgroups::broker
