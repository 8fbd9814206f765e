// SPDX-License-Identifier: Apache-2.0
//
// InitProducerId (key 22): v0-5.
// - Without a transactional id (idempotent producers): a new producer id at epoch 0, as Kafka
//   gives; transaction_timeout_ms is ignored. At --max-producer-ids the least recently used
//   idempotent producer expires (its next Produce gets UNKNOWN_PRODUCER_ID).
// - With a transactional id: the transaction coordinator (transactions/) answers: the same
//   producer id with the epoch bumped (a new id the first time), fencing the previous
//   producer and aborting its open transaction. INVALID_TRANSACTION_TIMEOUT for a timeout
//   above --transaction-max-timeout-ms or not positive.
// - v1: same layout. v2: flexible. v3: producer_id and producer_epoch: a producer that knows
//   its id asks to bump its epoch (KIP-360); for an idempotent producer the old id is released
//   and a new one given (Kafka gives a new one and keeps the old until it expires). For a
//   transactional one they must be the id's current or previous epoch, else
//   INVALID_PRODUCER_EPOCH (PRODUCER_FENCED from v4). v4: PRODUCER_FENCED. v5: same layout.
// - With a transactional id, the first one creates __transaction_state (as Kafka does);
//   --brokers N: NOT_COORDINATOR / COORDINATOR_LOAD_IN_PROGRESS as EndTxn's.
// - --log-dirs: ids come from blocks saved before use; if the next block cannot be saved
//   (disk full), COORDINATOR_LOAD_IN_PROGRESS (retriable), as Kafka when it has no block.
// - Injected errors (POST /v1/faults): an armed InitProducerId fault answers its error with
//   producer id and epoch -1.
#include "broker/handlers/authorization_error.h"
#include "broker/handlers/coordinator_check.h"
#include "broker/handlers/handlers.h"
#include "broker/handlers/producer_fenced.h"
#include "protocol/messages/init_producer_id.h"

namespace kgroups::broker::handlers {
namespace {

// As Kafka, a transactional id's first InitProducerId creates __transaction_state; then the
// receiving broker must coordinate the id.
protocol::ErrorCode placement_error(RequestContext& ctx, std::string_view transactional_id) {
  (void)ctx.broker.transaction_state_topic().ensure_created();
  return transaction_coordinator_refusal(ctx, transactional_id);
}

}  // namespace

asio::awaitable<Reply> handle_init_producer_id(RequestContext& ctx) {
  const auto request = protocol::InitProducerIdRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  protocol::InitProducerIdResponse response;
  // Kafka: WRITE on the transactional id; without one, IDEMPOTENT_WRITE on the cluster or WRITE
  // on some topic (KIP-679).
  if (request->transactional_id) {
    response.error_code =
        transactional_id_authorization_error(ctx, AclOperation::kWrite, *request->transactional_id);
  } else if (!ctx.allowed_on_cluster(AclOperation::kIdempotentWrite) &&
             !ctx.allowed_on_some(AclOperation::kWrite, AclResourceType::kTopic)) {
    response.error_code = protocol::ErrorCode::kClusterAuthorizationFailed;
  }
  if (response.error_code != protocol::ErrorCode::kNone) {
    ctx.count_error(response.error_code);
    response.encode(ctx.response, ctx.version());
    co_return Reply::kSend;
  }
  response.error_code = ctx.broker.faults().take_error(protocol::ApiKey::kInitProducerId, {});
  // An injected error (POST /v1/faults) answers with producer id and epoch -1, nothing issued.
  if (response.error_code == protocol::ErrorCode::kNone && !request->transactional_id) {
    ProducerRegistry& producers = ctx.broker.producer_ids();
    if (!producers.ready_to_issue()) {
      // The next block of ids could not be saved (--log-dirs): retriable, as Kafka's answer
      // when its producer id manager has no block yet.
      response.error_code = protocol::ErrorCode::kCoordinatorLoadInProgress;
    } else {
      if (const RegisteredProducer* previous = producers.find(request->producer_id);
          previous != nullptr && !previous->transactional) {
        producers.expire(request->producer_id);
      }
      response.producer_id = producers.issue(/*transactional=*/false);
      response.producer_epoch = 0;
    }
  } else if (response.error_code == protocol::ErrorCode::kNone) {
    // Not this broker's transactional id (or still loading it): producer id and epoch -1.
    response.error_code = placement_error(ctx, *request->transactional_id);
    if (response.error_code == protocol::ErrorCode::kNone) {
      const InitProducerIdResult result = ctx.broker.transactions().init_producer_id(
          *request->transactional_id, request->transaction_timeout_ms, request->producer_id,
          request->producer_epoch);
      response.error_code = fenced_for_version(result.error, ctx.version(), 4);
      response.producer_id = result.producer_id;
      response.producer_epoch = result.producer_epoch;
    }
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
