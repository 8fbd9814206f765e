// SPDX-License-Identifier: Apache-2.0
//
// Produce (key 0): v0-11.
// - v3-11: served. Each partition's records must be exactly one magic-2 batch, validated as
//   Kafka's LogValidator does before anything is stored (protocol/record_validator.h): sizes,
//   CRC-32C, codec, record count against the records actually there, every record's varints
//   and lengths, offset deltas, timestamps; compressed batches are decompressed for this (up to
//   --max-uncompressed-batch-bytes) but stored as sent. Control batches are refused (only the
//   broker writes them). A batch with a producer id goes through ProducerWrites: the id must
//   be one InitProducerId issued (UNKNOWN_PRODUCER_ID), its epoch current
//   (INVALID_PRODUCER_EPOCH), the transactional bit only within the producer's ongoing
//   transaction (INVALID_TXN_STATE); a duplicate of one of its last 5 batches is answered with
//   the original base offset and not stored again; a sequence gap gets
//   OUT_OF_ORDER_SEQUENCE_NUMBER.
//   Structural damage gets CORRUPT_MESSAGE, the rest INVALID_RECORD (INVALID_TIMESTAMP for a
//   client-set LogAppendTime); nothing of the partition is stored then. A stored batch gets the
//   broker's base offset and, if its header disagrees with its records, their max timestamp.
//   The internal topic __consumer_offsets gets INVALID_TOPIC_EXCEPTION, as Kafka answers a
//   client's append to an internal topic: only the group coordinators write it.
// - v4: same layout (Kafka: KAFKA_STORAGE_ERROR may be answered). v5: log_start_offset in the
//   answer. v6, v7: same layout (v7: zstd batches, accepted like the other codecs).
// - v8: error_message carries the validator's reason for a refused batch; record_errors stays
//   empty (a refused batch is refused whole, not record by record).
// - v9: flexible. v10: the tagged current_leader and node_endpoints are only sent with
//   NOT_LEADER_OR_FOLLOWER, which one broker never answers: never sent. v11: same layout (Kafka:
//   TRANSACTION_ABORTABLE may be answered; kgroupsd answers INVALID_TXN_STATE as before).
// - v0-2: advertised only because librdkafka turns compression off unless Produce's range
//   includes v0 (Kafka 4.0 does the same, KAFKA-18659). Their v0/v1 message sets get
//   UNSUPPORTED_FOR_MESSAGE_FORMAT.
// - acks: 1 and -1 answer once the batches are stored (there is one replica, so the same
//   moment); 0 sends no response at all, and an error then closes the connection, as Kafka
//   does, since the client has no other way to learn of it. Other values: INVALID_REQUIRED_ACKS.
//   With --log-dirs, a partition whose flush.messages is reached is flushed before the
//   answer: the Produce waits for the next group flush (storage/group_flush.h), which flushes
//   every such partition of the broker's turn at once.
// - A partition named more than once is stored and answered once, with the records it was
//   named with last, in the order first named (Kafka keeps the partitions in a map).
// - Unknown topics are auto-created when the broker allows it (within --max-topics and
//   --max-partitions); else UNKNOWN_TOPIC_OR_PARTITION.
// - Records above --max-message-bytes: MESSAGE_TOO_LARGE. Null or empty records:
//   INVALID_RECORD. No room in the records' memory share even after evicting
//   the oldest segments: KAFKA_STORAGE_ERROR (retriable).
// - Injected errors (POST /v1/faults): a partition an armed Produce fault matches answers its
//   error and is not stored; the other partitions are stored as usual.
// - Authorization (with the authorizer on), as Kafka: a request with transactional records
//   needs WRITE on its transactional id, else every partition answers
//   TRANSACTIONAL_ID_AUTHORIZATION_FAILED; then WRITE on each topic, else
//   TOPIC_AUTHORIZATION_FAILED for its partitions. Idempotent records need nothing more
//   (KIP-679). Kafka never auto-creates on Produce; kgroupsd does only for a client with CREATE
//   on the cluster or the topic (else UNKNOWN_TOPIC_OR_PARTITION), as Metadata does.
// - Not implemented: log-append time (log_append_time_ms is -1).
#include <algorithm>
#include <chrono>

#include "broker/handlers/handlers.h"
#include "broker/handlers/take_denied.h"
#include "broker/services/produce_service.h"
#include "broker/storage/batch_log.h"
#include "broker/storage/cluster.h"
#include "broker/storage/log_directory.h"
#include "protocol/messages/produce.h"
#include "protocol/record_batch.h"

namespace kgroups::broker::handlers {
namespace {

// acks=all with followers: waits until every awaited write is on the ISR, its leader changed,
// or the request's timeout_ms passed (then REQUEST_TIMED_OUT), as Kafka's delayed produce.
asio::awaitable<void> await_replication(RequestContext& ctx,
                                        const protocol::ProduceRequest& request,
                                        ProduceOutcome& outcome) {
  constexpr std::int32_t kMaxTimeoutMs = 120000;
  const auto deadline = asio::steady_timer::clock_type::now() +
                        std::chrono::milliseconds(std::clamp(request.timeout_ms, 0, kMaxTimeoutMs));
  ProduceService& producer = ctx.broker.producer();
  std::vector<const BatchLog*> logs;
  while (!producer.settle_replication(outcome, asio::steady_timer::clock_type::now() >= deadline)) {
    logs.clear();
    for (const AwaitedReplication& awaited : outcome.awaited) {
      logs.push_back(ctx.broker.cluster().find_partition(awaited.topic, awaited.partition));
    }
    co_await ctx.broker.append_notifier().wait_until(deadline, logs);
    const asio::cancellation_state state = co_await asio::this_coro::cancellation_state;
    if (state.cancelled() != asio::cancellation_type::none) co_return;
  }
  for (const auto& topic : outcome.response.responses) {
    for (const auto& partition : topic.partition_responses) ctx.count_error(partition.error_code);
  }
}

using DeniedTopic = std::pair<protocol::ProduceRequest::TopicData, protocol::ErrorCode>;

// Kafka's ProduceRequest.hasTransactionalRecords: a batch with the transactional bit (kgroupsd
// takes one batch per partition, so its first).
bool has_transactional_records(const protocol::ProduceRequest& request) {
  for (const auto& topic : request.topic_data) {
    for (const auto& partition : topic.partition_data) {
      if (!partition.records) continue;
      const auto header = protocol::parse_record_batch_header(*partition.records);
      if (header.has_value() && header.value().is_transactional()) return true;
    }
  }
  return false;
}

// Takes the topics the client may not produce to out of `request`, each with the error its
// partitions answer (see the top of the file). Nothing with the authorizer off.
std::vector<DeniedTopic> take_unauthorized(const RequestContext& ctx,
                                           protocol::ProduceRequest& request) {
  std::vector<DeniedTopic> denied;
  if (!ctx.authorizing()) return denied;
  if (has_transactional_records(request) &&
      (!request.transactional_id ||
       !ctx.allowed(AclOperation::kWrite, AclResourceType::kTransactionalId,
                    *request.transactional_id))) {
    for (auto& topic : request.topic_data) {
      denied.emplace_back(std::move(topic),
                          protocol::ErrorCode::kTransactionalIdAuthorizationFailed);
    }
    request.topic_data.clear();
    return denied;
  }
  for (auto& topic : take_denied_topics(ctx, request.topic_data, AclOperation::kWrite)) {
    denied.emplace_back(std::move(topic), protocol::ErrorCode::kTopicAuthorizationFailed);
  }
  const Cluster& cluster = ctx.broker.cluster();
  const auto may_exist = [&](const protocol::ProduceRequest::TopicData& topic) {
    return cluster.find_topic(topic.name) != nullptr ||
           ctx.allowed_on_cluster(AclOperation::kCreate) ||
           ctx.allowed(AclOperation::kCreate, AclResourceType::kTopic, topic.name);
  };
  for (auto& topic : take_denied(ctx, request.topic_data, may_exist)) {
    denied.emplace_back(std::move(topic), protocol::ErrorCode::kUnknownTopicOrPartition);
  }
  return denied;
}

void answer_denied(const std::vector<DeniedTopic>& denied, ProduceOutcome& outcome) {
  for (const auto& [topic, error] : denied) {
    auto& answered = outcome.response.responses.emplace_back();
    answered.name = std::string(topic.name);
    for (const auto& partition : topic.partition_data) {
      answered.partition_responses.push_back({.index = partition.index, .error_code = error});
    }
    if (outcome.first_error == protocol::ErrorCode::kNone) outcome.first_error = error;
  }
}

// Whether a partition `request` wrote to waits for a group flush (flush.messages reached).
bool awaits_flush(RequestContext& ctx, const protocol::ProduceRequest& request) {
  Cluster& cluster = ctx.broker.cluster();
  for (const auto& topic : request.topic_data) {
    for (const auto& partition : topic.partition_data) {
      const BatchLog* log = cluster.find_partition(topic.name, partition.index);
      if (log != nullptr && LogDirectory::awaits_flush(*log)) return true;
    }
  }
  return false;
}

}  // namespace

asio::awaitable<Reply> handle_produce(RequestContext& ctx) {
  auto request = protocol::ProduceRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  const std::vector<DeniedTopic> denied = take_unauthorized(ctx, *request);
  PartitionFaults faults = ctx.broker.faults().partition_faults(protocol::ApiKey::kProduce);
  ProduceOutcome outcome = ctx.broker.producer().produce(*request, ctx.peer, &faults, ctx.node_id);
  faults.settle();
  if (request->acks != 0 && awaits_flush(ctx, *request)) co_await ctx.broker.group_flush().wait();
  if (!outcome.awaited.empty()) co_await await_replication(ctx, *request, outcome);
  answer_denied(denied, outcome);
  if (outcome.first_error != protocol::ErrorCode::kNone) {
    for (const auto& topic : outcome.response.responses) {
      for (const auto& partition : topic.partition_responses) ctx.count_error(partition.error_code);
    }
  }
  if (request->acks == 0) {
    if (outcome.first_error != protocol::ErrorCode::kNone) {
      co_return ctx.close_because("acks=0 produce failed with " +
                                  std::string(protocol::error_name(outcome.first_error)) +
                                  " (closing tells the client)");
    }
    co_return Reply::kNoResponse;
  }
  outcome.response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
