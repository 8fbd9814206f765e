// SPDX-License-Identifier: Apache-2.0
//
// MessageProducer: produces ranges of the benchmark's messages with acks=all
// and waits for every delivery report, checking each one. The produce phase
// times it; the consume and group phases use it to write each round's
// messages before reading them. Not thread-safe: one thread uses it.
#pragma once

#include <librdkafka/rdkafka.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bench_options.h"
#include "message_ledger.h"

namespace kgroups::bench {

class MessageProducer {
 public:
  explicit MessageProducer(const BenchOptions& options);
  ~MessageProducer();
  MessageProducer(const MessageProducer&) = delete;
  MessageProducer& operator=(const MessageProducer&) = delete;

  // Produces messages first .. first+count-1 (message i to partition
  // i % partitions) and returns once each has a delivery report. Throws
  // std::runtime_error if any delivery failed, an acknowledged offset is
  // repeated or skipped in its partition, or `deadline` (monotonic seconds)
  // passes first.
  void produce(std::int64_t first, std::int64_t count, double deadline);

  // The offset each partition gave its first message in the last produce();
  // -1 for a partition that got none.
  [[nodiscard]] const std::vector<std::int64_t>& first_offsets() const { return first_offsets_; }

  // Called by librdkafka's delivery report callback.
  void on_delivery(const rd_kafka_message_t& message);

 private:
  void check_delivered(std::int64_t first, std::int64_t count);

  int partitions_;
  rd_kafka_t* producer_ = nullptr;
  rd_kafka_topic_t* topic_ = nullptr;
  MessageLedger ledger_;                            // messages acknowledged so far
  std::vector<std::vector<std::int64_t>> offsets_;  // acknowledged offsets of the last produce()
  std::vector<std::int64_t> first_offsets_;         // per partition, see first_offsets()
  std::int64_t failed_ = 0;                         // failed delivery reports, all calls
  std::string first_error_;
};

}  // namespace kgroups::bench
