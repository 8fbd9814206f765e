// SPDX-License-Identifier: Apache-2.0
//
// Hand-built transactional record batches for the broker's unit tests: a producer's
// transactional data batch and the commit or abort marker (a control batch) that ends its
// transaction, as Kafka lays them out, and appends that report them to the log's
// transaction index the way the write side does. Tests only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "broker/storage/batch_log.h"
#include "protocol/record_batch.h"
#include "protocol/record_batch_builder.h"

namespace kgroups::broker::testing {

constexpr std::int16_t kTransactionalAttribute = 0x10;
constexpr std::int16_t kControlAttribute = 0x20;

// A transactional batch of `producer_id` holding `values` (null keys), timestamps from
// `timestamp_ms` on.
inline std::vector<std::uint8_t> transactional_batch(std::int64_t producer_id,
                                                     const std::vector<std::string>& values,
                                                     std::int64_t timestamp_ms = 1000) {
  protocol::RecordBatchBuilder builder;
  builder.set_producer(producer_id, 0, 0);
  builder.set_attributes(kTransactionalAttribute);
  for (std::size_t i = 0; i < values.size(); ++i) {
    builder.add(std::nullopt, protocol::ByteView::of(values[i]),
                timestamp_ms + static_cast<std::int64_t>(i));
  }
  return builder.build();
}

// A plain (non-transactional) batch holding `values`.
inline std::vector<std::uint8_t> plain_batch(const std::vector<std::string>& values,
                                             std::int64_t timestamp_ms = 1000) {
  protocol::RecordBatchBuilder builder;
  for (std::size_t i = 0; i < values.size(); ++i) {
    builder.add(std::nullopt, protocol::ByteView::of(values[i]),
                timestamp_ms + static_cast<std::int64_t>(i));
  }
  return builder.build();
}

// The control batch ending `producer_id`'s transaction: one record whose key is version 0 and
// type 1 (commit) or 0 (abort), and whose value is version 0 and the coordinator epoch.
inline std::vector<std::uint8_t> marker_batch(std::int64_t producer_id, bool committed,
                                              std::int64_t timestamp_ms = 1000) {
  protocol::RecordBatchBuilder builder;
  builder.set_producer(producer_id, 0, -1);
  builder.set_attributes(kTransactionalAttribute | kControlAttribute);
  const std::vector<std::uint8_t> key{0, 0, 0, static_cast<std::uint8_t>(committed ? 1 : 0)};
  const std::vector<std::uint8_t> value{0, 0, 0, 0, 0, 0};
  builder.add(protocol::ByteView(key), protocol::ByteView(value), timestamp_ms);
  return builder.build();
}

// Appends `batch` to `log` and returns its base offset.
inline std::int64_t append_batch(BatchLog& log, const std::vector<std::uint8_t>& batch) {
  const auto header = protocol::parse_record_batch_header(batch);
  return log.append(batch, header->last_offset_delta, header->max_timestamp);
}

// Appends a transactional batch and reports it to the transaction index; its base offset.
inline std::int64_t append_transactional(BatchLog& log, std::int64_t producer_id,
                                         const std::vector<std::string>& values,
                                         std::int64_t timestamp_ms = 1000) {
  const std::int64_t base =
      append_batch(log, transactional_batch(producer_id, values, timestamp_ms));
  log.transactions().on_transactional_append(producer_id, base);
  return base;
}

// Appends a commit or abort marker and reports it to the transaction index; its offset.
inline std::int64_t append_marker(BatchLog& log, std::int64_t producer_id, bool committed) {
  const std::int64_t offset = append_batch(log, marker_batch(producer_id, committed));
  log.transactions().on_marker(producer_id, offset, committed);
  return offset;
}

}  // namespace kgroups::broker::testing
