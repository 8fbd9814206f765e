// SPDX-License-Identifier: Apache-2.0
//
// Playground: the simulated consumers and producers kgroupsd runs on its own, so that a
// learner can start and stop them from the console and watch groups rebalance
// (docs/HTTP-API.md, "Playground"). It checks every request against its bounds — at most
// kMaxConsumers running consumers and kMaxProducers producers, rates of kMinRate..kMaxRate
// records per second — and refuses with a PlaygroundRefusal (an HTTP status and a message
// saying what to change) before changing anything; what the consumers track of their groups'
// deliveries is charged to the groups' share of --max-memory (503 when a new group's would
// not fit). Stopped consumers stay listed (the newest
// kMaxStoppedConsumers) with state "stopped"; stopped producers are forgotten.
// Destroying the playground stops every client (their timers are cancelled); it must go
// before the io_context whose executor it was given, and before the broker.
// Not thread-safe: lives on the broker's network thread.
#pragma once

#include <asio/any_io_executor.hpp>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "broker/node/broker.h"
#include "broker/playground/delivered_offsets.h"
#include "broker/playground/playground_timing.h"
#include "broker/playground/simulated_consumer.h"
#include "broker/playground/simulated_producer.h"

namespace kgroups::broker::playground {

// A request the playground refuses: `status` is the HTTP status to answer (400, 404, 409).
class PlaygroundRefusal : public std::runtime_error {
 public:
  PlaygroundRefusal(int status, const std::string& message)
      : std::runtime_error(message), status_(status) {}
  [[nodiscard]] int status() const { return status_; }

 private:
  int status_;
};

struct ConsumerRequest {
  std::string group = "playground";
  std::string topic = "playground";
  std::string assignor = "range";
  std::int32_t session_timeout_ms = 10000;
};

struct ProducerRequest {
  std::string topic = "playground";
  std::int32_t rate = 10;
};

class Playground {
 public:
  static constexpr std::size_t kMaxConsumers = 32;
  static constexpr std::size_t kMaxStoppedConsumers = 32;
  static constexpr std::size_t kMaxProducers = 8;
  static constexpr std::int32_t kMinRate = 1;
  static constexpr std::int32_t kMaxRate = 10000;
  static constexpr std::int32_t kTopicPartitions = 6;  // of the topics the playground creates

  // `broker` must outlive the playground; `executor` runs the clients' timers.
  Playground(Broker& broker, asio::any_io_executor executor, PlaygroundTiming timing = {});
  ~Playground();
  Playground(const Playground&) = delete;
  Playground& operator=(const Playground&) = delete;

  // Starts a consumer (creating its topic with kTopicPartitions partitions if missing).
  // Throws PlaygroundRefusal: 400 for an unknown assignor, an invalid group or topic name, a
  // session timeout outside the broker's bounds; 409 beyond kMaxConsumers, or when the
  // group's running simulated consumers use another assignor (the coordinator would refuse
  // the join), or the topic cannot be created; 503 when the groups' share has no room for
  // a new group's delivered offsets (check_delivered_offsets_room).
  const SimulatedConsumer& add_consumer(const ConsumerRequest& request);
  // Stops consumer `id`: LeaveGroup, or without a word when `crash`. Throws PlaygroundRefusal
  // 404 for an unknown id. A stopped consumer stays as it is. Returns the consumer (which
  // the playground may already have forgotten, beyond kMaxStoppedConsumers).
  std::shared_ptr<const SimulatedConsumer> stop_consumer(int id, bool crash);

  // Starts a producer (creating its topic if missing). Throws PlaygroundRefusal: 400 for a
  // rate outside kMinRate..kMaxRate or an invalid topic name; 409 beyond kMaxProducers.
  const SimulatedProducer& add_producer(const ProducerRequest& request);
  // Stops and forgets producer `id`. Throws PlaygroundRefusal 404 for an unknown id.
  void stop_producer(int id);

  // Oldest first.
  [[nodiscard]] const std::vector<std::shared_ptr<SimulatedConsumer>>& consumers() const {
    return consumers_;
  }
  [[nodiscard]] const std::vector<std::shared_ptr<SimulatedProducer>>& producers() const {
    return producers_;
  }

 private:
  void check_consumer_request(const ConsumerRequest& request) const;
  // Throws PlaygroundRefusal 503 when a consumer of a group the playground does not run yet
  // could not have its delivered offsets tracked in the groups' share.
  void check_delivered_offsets_room(const ConsumerRequest& request) const;
  // Creates `topic` if it does not exist; throws PlaygroundRefusal when it cannot.
  void ensure_topic(const std::string& topic);
  [[nodiscard]] std::size_t running_consumers() const;
  void forget_oldest_stopped_consumers();

  Broker& broker_;
  asio::any_io_executor executor_;
  PlaygroundTiming timing_;
  DeliveredOffsets delivered_;
  std::vector<std::shared_ptr<SimulatedConsumer>> consumers_;
  std::vector<std::shared_ptr<SimulatedProducer>> producers_;
  int next_consumer_id_ = 1;
  int next_producer_id_ = 1;
};

}  // namespace kgroups::broker::playground
