// SPDX-License-Identifier: Apache-2.0
#include "broker/storage/group_flush.h"

#include <algorithm>
#include <asio/post.hpp>
#include <asio/redirect_error.hpp>
#include <asio/this_coro.hpp>
#include <asio/use_awaitable.hpp>
#include <utility>

namespace kgroups::broker {

void GroupFlush::schedule() {
  if (scheduled_) return;
  if (!executor_) {
    run();
    return;
  }
  scheduled_ = true;
  asio::post(*executor_, [this] { run(); });
}

asio::awaitable<void> GroupFlush::wait() {
  asio::steady_timer timer(co_await asio::this_coro::executor,
                           asio::steady_timer::time_point::max());
  const std::uint64_t before = rounds_;
  schedule();
  if (rounds_ != before) co_return;  // flushed at once (not started)
  waiters_.push_back(&timer);
  // Unregisters the timer however the wait ends, including the coroutine being destroyed.
  struct Unregister {
    std::vector<asio::steady_timer*>& waiters;
    asio::steady_timer* timer;
    ~Unregister() { std::erase(waiters, timer); }
  } unregister{waiters_, &timer};
  std::error_code error;  // operation_aborted when woken or cancelled; either way we return
  co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, error));
}

void GroupFlush::run() {
  scheduled_ = false;
  partitions_flushed_ += flush_();
  ++rounds_;
  waits_ += waiters_.size();
  // Everyone waiting now appended before this round began (the thread is single), so the
  // round covered their records.
  for (asio::steady_timer* timer : std::exchange(waiters_, {})) timer->cancel();
}

}  // namespace kgroups::broker
