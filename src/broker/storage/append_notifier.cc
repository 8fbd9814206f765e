// SPDX-License-Identifier: Apache-2.0
#include "broker/storage/append_notifier.h"

#include <algorithm>
#include <asio/redirect_error.hpp>
#include <asio/this_coro.hpp>
#include <asio/use_awaitable.hpp>

namespace kgroups::broker {

void AppendNotifier::add(const BatchLog* partition, asio::steady_timer* timer) {
  waiting_[partition].push_back(timer);
}

void AppendNotifier::remove(const BatchLog* partition, asio::steady_timer* timer) {
  const auto found = waiting_.find(partition);
  if (found == waiting_.end()) return;
  std::vector<asio::steady_timer*>& timers = found->second;
  timers.erase(std::remove(timers.begin(), timers.end(), timer), timers.end());
  if (timers.empty()) waiting_.erase(found);
}

asio::awaitable<void> AppendNotifier::wait_until(asio::steady_timer::time_point deadline,
                                                 std::span<const BatchLog* const> partitions) {
  asio::steady_timer timer(co_await asio::this_coro::executor, deadline);
  for (const BatchLog* partition : partitions) add(partition, &timer);
  ++waiters_;
  // Unregisters the timer however the wait ends, including the coroutine being destroyed.
  struct Unregister {
    AppendNotifier& notifier;
    std::span<const BatchLog* const> partitions;
    asio::steady_timer* timer;
    ~Unregister() {
      for (const BatchLog* partition : partitions) notifier.remove(partition, timer);
      --notifier.waiters_;
    }
  } unregister{*this, partitions, &timer};
  std::error_code error;  // operation_aborted when woken or cancelled; either way we return
  co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, error));
}

void AppendNotifier::notify(const BatchLog& partition) {
  const auto found = waiting_.find(&partition);
  if (found == waiting_.end()) return;
  for (asio::steady_timer* timer : found->second) timer->cancel();
}

}  // namespace kgroups::broker
