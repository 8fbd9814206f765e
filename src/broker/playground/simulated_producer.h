// SPDX-License-Identifier: Apache-2.0
//
// SimulatedProducer: one producer the playground runs inside kgroupsd. Every producer tick it
// appends its share of `rate` records per second to its topic through the broker's Produce
// path (ProduceService: validation, appends, waking long-polling fetches), one batch per
// partition, so end offsets, events and metrics move as for a real client. Records are small:
// record n has key "k<n>" and value "record <n> from playground producer <id>", and goes to
// partition n mod the topic's partitions (round-robin, so every partition fills evenly).
// Not thread-safe: runs on the broker's network thread; create it with std::make_shared.
#pragma once

#include <asio/any_io_executor.hpp>
#include <asio/steady_timer.hpp>
#include <cstdint>
#include <memory>
#include <string>

#include "broker/node/broker.h"
#include "broker/playground/playground_timing.h"

namespace kgroups::broker::playground {

class SimulatedProducer : public std::enable_shared_from_this<SimulatedProducer> {
 public:
  // `broker` must outlive the producer. `rate`: records per second, >= 1.
  SimulatedProducer(int id, std::string topic, std::int32_t rate, Broker& broker,
                    const asio::any_io_executor& executor, const PlaygroundTiming& timing);

  void start();
  void stop();

  [[nodiscard]] int id() const { return id_; }
  [[nodiscard]] const std::string& topic() const { return topic_; }
  [[nodiscard]] std::int32_t rate() const { return rate_; }
  // Records the broker stored.
  [[nodiscard]] std::int64_t produced() const { return produced_; }

 private:
  void schedule_tick();
  void produce(std::int64_t records);

  int id_;
  std::string topic_;
  std::int32_t rate_;
  Broker& broker_;
  PlaygroundTiming timing_;
  asio::steady_timer timer_;
  bool running_ = false;
  double owed_ = 0;  // records due but not yet produced (the fraction of a record per tick)
  std::int64_t next_key_ = 0;
  std::int64_t produced_ = 0;
};

}  // namespace kgroups::broker::playground
