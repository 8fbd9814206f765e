// SPDX-License-Identifier: Apache-2.0
//
// AddPartitionsToTxn (key 24): v0-3.
// - v0: the producer adds partitions to its transaction before writing to them; the
//   transaction becomes Ongoing (its timeout starts). INVALID_PRODUCER_ID_MAPPING for an
//   unknown transactional id or another producer id, INVALID_PRODUCER_EPOCH for an old epoch
//   (fenced); an unknown partition gets UNKNOWN_TOPIC_OR_PARTITION and the others
//   OPERATION_NOT_ATTEMPTED; more than --max-partitions-per-transaction: INVALID_TXN_STATE.
// - v1: same layout. v2: PRODUCER_FENCED instead of INVALID_PRODUCER_EPOCH. v3: flexible.
// - --brokers N: NOT_COORDINATOR / COORDINATOR_LOAD_IN_PROGRESS (for every partition) as
//   EndTxn's.
// - Not served: v4-5, the broker-to-broker form (several transactions, verify_only; KIP-890).
#include "broker/handlers/authorization_error.h"
#include "broker/handlers/coordinator_check.h"
#include "broker/handlers/handlers.h"
#include "broker/handlers/producer_fenced.h"
#include "protocol/messages/add_partitions_to_txn.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_add_partitions_to_txn(RequestContext& ctx) {
  const auto request = protocol::AddPartitionsToTxnRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  std::vector<TransactionPartition> partitions;
  for (const auto& topic : request->topics) {
    for (const std::int32_t partition : topic.partitions) {
      partitions.push_back({std::string(topic.name), partition});
    }
  }
  protocol::ErrorCode refusal =
      transactional_id_authorization_error(ctx, AclOperation::kWrite, request->transactional_id);
  if (refusal == protocol::ErrorCode::kNone) {
    refusal = transaction_coordinator_refusal(ctx, request->transactional_id);
  }
  // Kafka: WRITE on each topic; if any is denied nothing is added: the denied topics' partitions
  // answer TOPIC_AUTHORIZATION_FAILED, unknown ones UNKNOWN_TOPIC_OR_PARTITION, the others
  // OPERATION_NOT_ATTEMPTED.
  std::vector<protocol::ErrorCode> topic_denials;
  if (refusal == protocol::ErrorCode::kNone && ctx.authorizing()) {
    bool any_denied = false;
    for (const auto& topic : request->topics) {
      const bool denied = !ctx.allowed(AclOperation::kWrite, AclResourceType::kTopic, topic.name);
      any_denied = any_denied || denied;
      for (const std::int32_t partition : topic.partitions) {
        topic_denials.push_back(denied ? protocol::ErrorCode::kTopicAuthorizationFailed
                                : ctx.broker.cluster().find_partition(topic.name, partition) ==
                                        nullptr
                                    ? protocol::ErrorCode::kUnknownTopicOrPartition
                                    : protocol::ErrorCode::kOperationNotAttempted);
      }
    }
    if (!any_denied) topic_denials.clear();
  }
  const std::vector<protocol::ErrorCode> errors =
      !topic_denials.empty() ? topic_denials
      : refusal != protocol::ErrorCode::kNone
          ? std::vector<protocol::ErrorCode>(partitions.size(), refusal)
          : ctx.broker.transactions().add_partitions(request->transactional_id,
                                                     request->producer_id, request->producer_epoch,
                                                     partitions);
  protocol::AddPartitionsToTxnResponse response;
  std::size_t next = 0;
  for (const auto& topic : request->topics) {
    auto& result = response.results.emplace_back();
    result.name = std::string(topic.name);
    for (const std::int32_t partition : topic.partitions) {
      result.results.push_back(
          {.partition_index = partition,
           .error_code = fenced_for_version(errors[next++], ctx.version(), 2)});
    }
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
