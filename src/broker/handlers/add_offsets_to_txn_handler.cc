// SPDX-License-Identifier: Apache-2.0
//
// AddOffsetsToTxn (key 25): v0-4.
// - v0: adds a consumer group to the producer's transaction, so that TxnOffsetCommit may
//   commit its offsets; the transaction becomes Ongoing. Errors as AddPartitionsToTxn's, and
//   INVALID_GROUP_ID for an empty (or too long) group id.
// - v1: same layout. v2: PRODUCER_FENCED instead of INVALID_PRODUCER_EPOCH. v3: flexible.
//   v4: same layout (Kafka may answer TRANSACTION_ABORTABLE; kgroupsd never needs to).
// - --brokers N: NOT_COORDINATOR / COORDINATOR_LOAD_IN_PROGRESS as EndTxn's.
#include "broker/handlers/authorization_error.h"
#include "broker/handlers/coordinator_check.h"
#include "broker/handlers/handlers.h"
#include "broker/handlers/producer_fenced.h"
#include "protocol/messages/add_offsets_to_txn.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_add_offsets_to_txn(RequestContext& ctx) {
  const auto request = protocol::AddOffsetsToTxnRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  // Kafka: WRITE on the transactional id, then READ on the group.
  protocol::ErrorCode error =
      transactional_id_authorization_error(ctx, AclOperation::kWrite, request->transactional_id);
  if (error == protocol::ErrorCode::kNone) {
    error = group_authorization_error(ctx, AclOperation::kRead, request->group_id);
  }
  if (error == protocol::ErrorCode::kNone) {
    error = transaction_coordinator_refusal(ctx, request->transactional_id);
  }
  if (error == protocol::ErrorCode::kNone) {
    error = ctx.broker.transactions().add_offsets(request->transactional_id, request->producer_id,
                                                  request->producer_epoch, request->group_id);
  }
  protocol::AddOffsetsToTxnResponse response;
  response.error_code = fenced_for_version(error, ctx.version(), 2);
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
