// SPDX-License-Identifier: Apache-2.0
#include "broker/playground/simulated_producer.h"

#include <chrono>
#include <cmath>
#include <map>
#include <system_error>
#include <utility>
#include <vector>

#include "protocol/record_batch_builder.h"

namespace kgroups::broker::playground {

SimulatedProducer::SimulatedProducer(int id, std::string topic, std::int32_t rate, Broker& broker,
                                     const asio::any_io_executor& executor,
                                     const PlaygroundTiming& timing)
    : id_(id),
      topic_(std::move(topic)),
      rate_(rate),
      broker_(broker),
      timing_(timing),
      timer_(executor) {}

void SimulatedProducer::start() {
  running_ = true;
  schedule_tick();
}

void SimulatedProducer::stop() {
  running_ = false;
  timer_.cancel();
}

void SimulatedProducer::schedule_tick() {
  timer_.expires_after(timing_.producer_tick);
  timer_.async_wait([weak = weak_from_this()](const std::error_code& error) {
    if (error) return;
    const auto self = weak.lock();
    if (!self || !self->running_) return;
    const double per_tick = static_cast<double>(self->rate_) *
                            static_cast<double>(self->timing_.producer_tick.count()) / 1000.0;
    self->owed_ += per_tick;
    const auto records = static_cast<std::int64_t>(std::floor(self->owed_));
    self->owed_ -= static_cast<double>(records);
    if (records > 0) self->produce(records);
    self->schedule_tick();
  });
}

void SimulatedProducer::produce(std::int64_t records) {
  const StoredTopic* topic = broker_.cluster().find_topic(topic_);
  const int partitions = topic == nullptr ? 1 : static_cast<int>(topic->partitions.size());
  const std::int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                  std::chrono::system_clock::now().time_since_epoch())
                                  .count();
  std::map<int, protocol::RecordBatchBuilder> builders;
  for (std::int64_t i = 0; i < records; ++i) {
    const std::int64_t n = next_key_++;
    const std::string key = "k" + std::to_string(n);
    const std::string value =
        "record " + std::to_string(n) + " from playground producer " + std::to_string(id_);
    builders[static_cast<int>(n % partitions)].add(protocol::ByteView::of(key),
                                                   protocol::ByteView::of(value), now_ms);
  }
  std::vector<std::vector<std::uint8_t>> batches;
  batches.reserve(builders.size());
  protocol::ProduceRequest request;
  request.acks = 1;
  request.timeout_ms = 1000;
  request.topic_data.push_back({.name = topic_});
  for (const auto& [partition, builder] : builders) {
    batches.push_back(builder.build());
    request.topic_data[0].partition_data.push_back(
        {.index = partition, .records = protocol::ByteView(batches.back())});
  }
  const ProduceOutcome outcome = broker_.producer().produce(request, "playground");
  for (const auto& topic_response : outcome.response.responses) {
    for (const auto& partition : topic_response.partition_responses) {
      if (partition.error_code != protocol::ErrorCode::kNone) continue;
      const auto found = builders.find(partition.index);
      if (found != builders.end()) produced_ += found->second.record_count();
    }
  }
}

}  // namespace kgroups::broker::playground
