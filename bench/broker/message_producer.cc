// SPDX-License-Identifier: Apache-2.0
//
// MessageProducer: acks=all production with checked delivery reports. The
// callback runs on the calling thread inside rd_kafka_poll/rd_kafka_flush.
#include "message_producer.h"

#include <algorithm>
#include <stdexcept>

#include "kafka_config.h"
#include "phase_clock.h"

namespace kgroups::bench {
namespace {

void deliver(rd_kafka_t*, const rd_kafka_message_t* message, void* opaque) {
  static_cast<MessageProducer*>(opaque)->on_delivery(*message);
}

}  // namespace

MessageProducer::MessageProducer(const BenchOptions& options)
    : partitions_(options.partitions),
      ledger_(options.messages, options.partitions),
      offsets_(static_cast<std::size_t>(options.partitions)),
      first_offsets_(static_cast<std::size_t>(options.partitions), -1) {
  rd_kafka_conf_t* config = make_kafka_config({{"bootstrap.servers", options.bootstrap},
                                               {"acks", "all"},
                                               {"enable.idempotence", "false"},
                                               {"compression.type", "none"},
                                               {"linger.ms", "5"},
                                               {"batch.num.messages", "10000"},
                                               {"batch.size", "1000000"},
                                               {"queue.buffering.max.messages", "200000"},
                                               {"message.timeout.ms", "60000"}});
  rd_kafka_conf_set_dr_msg_cb(config, deliver);
  rd_kafka_conf_set_opaque(config, this);
  producer_ = make_kafka_client(RD_KAFKA_PRODUCER, config);
  topic_ = rd_kafka_topic_new(producer_, options.topic.c_str(), nullptr);
}

MessageProducer::~MessageProducer() {
  rd_kafka_topic_destroy(topic_);
  rd_kafka_destroy(producer_);
}

void MessageProducer::on_delivery(const rd_kafka_message_t& message) {
  std::string problem;
  if (message.err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    problem = std::string("delivery failed: ") + rd_kafka_err2str(message.err);
  } else {
    problem = ledger_.record(message.key, message.key_len, message.payload, message.len,
                             message.partition);
    if (problem.empty()) {
      offsets_[static_cast<std::size_t>(message.partition)].push_back(message.offset);
    } else {
      problem = "delivery report: " + problem;
    }
  }
  if (!problem.empty() && failed_++ == 0) first_error_ = problem;
}

void MessageProducer::produce(std::int64_t first, std::int64_t count, double deadline) {
  for (auto& offsets : offsets_) offsets.clear();
  unsigned char key[kKeyBytes];
  unsigned char value[kValueBytes];
  for (std::int64_t i = first; i < first + count; ++i) {
    encode_key(i, key);
    encode_value(i, value);
    while (true) {
      // rd_kafka_produce rather than the rd_kafka_producev macros, which use
      // GNU statement expressions (-Wpedantic under clang).
      const int status =
          rd_kafka_produce(topic_, static_cast<std::int32_t>(i % partitions_), RD_KAFKA_MSG_F_COPY,
                           value, kValueBytes, key, kKeyBytes, nullptr);
      const rd_kafka_resp_err_t err =
          status == 0 ? RD_KAFKA_RESP_ERR_NO_ERROR : rd_kafka_last_error();
      if (err == RD_KAFKA_RESP_ERR_NO_ERROR) break;
      if (err != RD_KAFKA_RESP_ERR__QUEUE_FULL) {
        throw std::runtime_error(std::string("produce: rd_kafka_produce: ") +
                                 rd_kafka_err2str(err));
      }
      rd_kafka_poll(producer_, 1);
      if (monotonic_seconds() > deadline) {
        throw std::runtime_error(
            "produce: timed out with the local queue full (the broker stopped acknowledging)");
      }
    }
    if (i % 1000 == 0) rd_kafka_poll(producer_, 0);
  }
  while (rd_kafka_outq_len(producer_) > 0) {
    rd_kafka_flush(producer_, 100);
    if (monotonic_seconds() > deadline) {
      throw std::runtime_error("produce: timed out with " +
                               std::to_string(rd_kafka_outq_len(producer_)) +
                               " messages unacknowledged");
    }
  }
  check_delivered(first, count);
}

void MessageProducer::check_delivered(std::int64_t first, std::int64_t count) {
  if (failed_ > 0) {
    throw std::runtime_error("produce: " + std::to_string(failed_) +
                             " delivery reports failed; first: " + first_error_);
  }
  std::int64_t delivered = 0;
  for (std::size_t partition = 0; partition < offsets_.size(); ++partition) {
    std::vector<std::int64_t>& offsets = offsets_[partition];
    std::sort(offsets.begin(), offsets.end());
    first_offsets_[partition] = offsets.empty() ? -1 : offsets.front();
    delivered += static_cast<std::int64_t>(offsets.size());
    for (std::size_t i = 1; i < offsets.size(); ++i) {
      if (offsets[i] != offsets[i - 1] + 1) {
        throw std::runtime_error("produce: partition " + std::to_string(partition) +
                                 " acknowledged offset " + std::to_string(offsets[i - 1]) +
                                 " then " + std::to_string(offsets[i]) +
                                 " (offsets must be dense and unique)");
      }
    }
  }
  if (delivered != count) {
    throw std::runtime_error("produce: " + std::to_string(delivered) + " of messages " +
                             std::to_string(first) + ".." + std::to_string(first + count - 1) +
                             " acknowledged; first missing overall: " + ledger_.first_missing(5));
  }
}

}  // namespace kgroups::bench
