// SPDX-License-Identifier: Apache-2.0
//
// For the broker's unit tests of an idempotent acks=all producer against three brokers with
// min.insync.replicas 2 (leader isolation, a stopped leader): the configuration, and one
// Produce of a one-record batch to partition 0 of "orders" with the answer read back. Tests
// only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "broker/node/broker.h"
#include "broker/node/three_broker_config_for_tests.h"
#include "protocol/record_batch_builder.h"

namespace kgroups::broker::testing {

inline BrokerConfig three_brokers_min_insync_two() {
  BrokerConfig config = three_broker_config();
  config.min_insync_replicas = 2;
  return config;
}

// One acks=all Produce of a one-record idempotent batch (producer `id`, epoch 0, sequence
// `sequence`, value "v<sequence>") to "orders"[0], sent to broker `node`; `batch` keeps the
// bytes the request views.
inline ProduceOutcome produce_idempotent(Broker& broker, std::int32_t node, std::int64_t id,
                                         std::int32_t sequence, std::vector<std::uint8_t>& batch) {
  protocol::RecordBatchBuilder builder;
  builder.set_producer(id, 0, sequence);
  const std::string value = "v" + std::to_string(sequence);
  builder.add(std::nullopt, protocol::ByteView::of(value), 1000);
  batch = builder.build();
  protocol::ProduceRequest request;
  request.acks = -1;
  request.timeout_ms = 30000;
  request.topic_data.push_back(
      {.name = "orders", .partition_data = {{.index = 0, .records = protocol::ByteView(batch)}}});
  return broker.producer().produce(request, "test", nullptr, node);
}

// The answer for "orders"[0].
inline const protocol::ProduceResponse::PartitionResponse& partition_answer(
    const ProduceOutcome& outcome) {
  return outcome.response.responses.front().partition_responses.front();
}

}  // namespace kgroups::broker::testing
