// SPDX-License-Identifier: Apache-2.0
//
// The consume phase: one consumer, no group membership, reads the messages by
// rd_kafka_assign. It runs in rounds of options.round_messages because
// librdkafka's mock cluster keeps only the newest 5 MiB of each partition: each
// round first produces its messages (untimed), then assigns every partition at
// the round's first offset and reads until the round is complete (timed).
// librdkafka 2.0.2 wants a group.id for rd_kafka_assign, but nothing here joins
// the group or commits. Single-threaded.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "kafka_config.h"
#include "message_ledger.h"
#include "message_producer.h"
#include "phase_clock.h"
#include "phases.h"

namespace kgroups::bench {
namespace {

void assign_from(rd_kafka_t* consumer, const std::string& topic,
                 const std::vector<std::int64_t>& first_offsets) {
  rd_kafka_topic_partition_list_t* partitions =
      rd_kafka_topic_partition_list_new(static_cast<int>(first_offsets.size()));
  for (std::size_t partition = 0; partition < first_offsets.size(); ++partition) {
    if (first_offsets[partition] < 0) continue;
    rd_kafka_topic_partition_list_add(partitions, topic.c_str(), static_cast<int>(partition))
        ->offset = first_offsets[partition];
  }
  rd_kafka_resp_err_t err = rd_kafka_assign(consumer, partitions);
  rd_kafka_topic_partition_list_destroy(partitions);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    throw std::runtime_error(std::string("consume: rd_kafka_assign: ") + rd_kafka_err2str(err));
  }
}

// Fetches the topic's metadata before any clock runs: otherwise the consumer may
// learn it only at librdkafka's next 1 s metadata tick after the first assign.
void learn_topic(rd_kafka_t* consumer, const std::string& topic) {
  rd_kafka_topic_t* handle = rd_kafka_topic_new(consumer, topic.c_str(), nullptr);
  const rd_kafka_metadata_t* metadata = nullptr;
  rd_kafka_resp_err_t err = rd_kafka_metadata(consumer, 0, handle, &metadata, 10000);
  rd_kafka_topic_destroy(handle);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    throw std::runtime_error("consume: metadata of topic " + topic + ": " + rd_kafka_err2str(err));
  }
  rd_kafka_metadata_destroy(metadata);
}

// Reads until the ledger holds `target` messages; each partition's offsets
// must continue from `next_offset` with no gap.
void read_until(rd_kafka_t* consumer, MessageLedger& ledger, std::int64_t target,
                std::vector<std::int64_t>& next_offset, double deadline) {
  while (ledger.unique() < target) {
    if (monotonic_seconds() > deadline) {
      throw std::runtime_error("consume: timed out with " + std::to_string(ledger.unique()) +
                               " of " + std::to_string(target) +
                               " messages read; first missing: " + ledger.first_missing(5));
    }
    rd_kafka_message_t* message = rd_kafka_consumer_poll(consumer, 100);
    if (message == nullptr) continue;
    std::string problem;
    if (message->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      problem = std::string("consumer error: ") + rd_kafka_message_errstr(message) +
                (message->err == RD_KAFKA_RESP_ERR_OFFSET_OUT_OF_RANGE
                     ? " (the broker dropped messages; try a smaller --round-messages)"
                     : "");
    } else if (auto& expected = next_offset[static_cast<std::size_t>(message->partition)];
               message->offset != expected) {
      problem = "partition " + std::to_string(message->partition) + " gave offset " +
                std::to_string(message->offset) + " where " + std::to_string(expected) +
                " was next";
    } else {
      ++expected;
      problem = ledger.record(message->key, message->key_len, message->payload, message->len,
                              message->partition);
    }
    rd_kafka_message_destroy(message);
    if (!problem.empty()) throw std::runtime_error("consume: " + problem);
  }
}

}  // namespace

PhaseResult run_consume(const BenchOptions& options) {
  MessageProducer producer(options);
  MessageLedger ledger(options.messages, options.partitions);
  rd_kafka_t* consumer = make_kafka_client(
      RD_KAFKA_CONSUMER, make_kafka_config({{"bootstrap.servers", options.bootstrap},
                                            {"group.id", options.group_id},
                                            {"enable.auto.commit", "false"},
                                            {"enable.partition.eof", "false"},
                                            {"fetch.wait.max.ms", "100"},
                                            {"debug", options.debug}}));
  rd_kafka_poll_set_consumer(consumer);
  learn_topic(consumer, options.topic);
  PhaseClock clock(options.broker_pid);
  double deadline = monotonic_seconds() + options.timeout_s;
  for (std::int64_t first = 0; first < options.messages; first += options.round_messages) {
    std::int64_t count = std::min(options.round_messages, options.messages - first);
    producer.produce(first, count, deadline);
    std::vector<std::int64_t> next_offset = producer.first_offsets();
    clock.start();
    assign_from(consumer, options.topic, next_offset);
    read_until(consumer, ledger, first + count, next_offset, deadline);
    clock.stop();
    rd_kafka_assign(consumer, nullptr);
  }
  rd_kafka_consumer_close(consumer);
  rd_kafka_destroy(consumer);
  return PhaseResult{.phase = "consume",
                     .messages = options.messages,
                     .seconds = clock.wall_seconds(),
                     .client_cpu_seconds = clock.client_cpu_seconds(),
                     .broker_cpu_seconds = clock.broker_cpu_seconds(),
                     .broker_run_seconds = clock.broker_run_seconds()};
}

}  // namespace kgroups::bench
