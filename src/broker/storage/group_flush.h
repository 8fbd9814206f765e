// SPDX-License-Identifier: Apache-2.0
//
// GroupFlush: group commit for --log-dirs when a topic's flush.messages (Kafka's
// log.flush.interval.messages) asks for a flush. An append that reaches flush.messages only
// marks its partition (LogDirectory::after_append) and calls schedule(); the Produce that made
// it waits in wait() before it is answered. One round runs per turn of the network thread,
// posted behind every request already received: it flushes all the marked partitions (one
// fdatasync per partition, however many producers wrote to it since the last round) and then
// wakes every Produce that waited for it. Concurrent producers thus share flushes, and a
// producer is still acknowledged only after its records are on the disk.
// Not thread-safe: used only on the broker's network thread (its io_context's single thread).
#pragma once

#include <asio/any_io_executor.hpp>
#include <asio/awaitable.hpp>
#include <asio/steady_timer.hpp>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace kgroups::broker {

class GroupFlush {
 public:
  // `flush` flushes the marked partitions (LogDirectory::flush_requested) and returns how
  // many it flushed.
  explicit GroupFlush(std::function<std::size_t()> flush) : flush_(std::move(flush)) {}
  GroupFlush(const GroupFlush&) = delete;
  GroupFlush& operator=(const GroupFlush&) = delete;

  // The network thread's executor; before it is set, schedule() flushes at once.
  void start(const asio::any_io_executor& executor) { executor_ = executor; }

  // A partition was marked: a round is posted unless one is already.
  void schedule();

  // Suspends the calling coroutine until the next round has flushed (or the coroutine is
  // cancelled). Does not throw on either.
  asio::awaitable<void> wait();

  // For GET /metrics: rounds run, partitions they flushed, and Produce requests woken.
  [[nodiscard]] std::uint64_t rounds() const { return rounds_; }
  [[nodiscard]] std::uint64_t partitions_flushed() const { return partitions_flushed_; }
  [[nodiscard]] std::uint64_t waits() const { return waits_; }
  [[nodiscard]] std::size_t waiting() const { return waiters_.size(); }

 private:
  void run();

  std::function<std::size_t()> flush_;
  std::optional<asio::any_io_executor> executor_;
  bool scheduled_ = false;
  std::vector<asio::steady_timer*> waiters_;  // woken by the next round
  std::uint64_t rounds_ = 0;
  std::uint64_t partitions_flushed_ = 0;
  std::uint64_t waits_ = 0;
};

}  // namespace kgroups::broker
