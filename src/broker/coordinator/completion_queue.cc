// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/completion_queue.h"

#include <utility>

namespace kgroups::broker {

void CompletionQueue::run() {
  if (running_) return;
  running_ = true;
  while (!completions_.empty()) {
    std::function<void()> completion = std::move(completions_.front());
    completions_.pop_front();
    completion();
  }
  running_ = false;
}

}  // namespace kgroups::broker
