// SPDX-License-Identifier: Apache-2.0
//
// EndTxn (key 26): v0-4.
// - v0: commits or aborts the producer's ongoing transaction: a commit or abort marker
//   (control batch) goes into every partition of the transaction before the answer, fetches
//   waiting on them wake, and the offsets TxnOffsetCommit left pending are committed (or
//   dropped). A retry of the same outcome is NONE; the other outcome or no transaction:
//   INVALID_TXN_STATE. Unknown id or other producer id: INVALID_PRODUCER_ID_MAPPING; an old
//   epoch (fenced, also after the transaction timed out): INVALID_PRODUCER_EPOCH.
// - v1: same layout. v2: PRODUCER_FENCED instead of INVALID_PRODUCER_EPOCH. v3: flexible.
//   v4: same layout.
// - --brokers N: sent to a broker that does not coordinate the transactional id (the leader of
//   its __transaction_state partition), NOT_COORDINATOR; while that leader loads the
//   partition, COORDINATOR_LOAD_IN_PROGRESS (coordinator_check.h).
// - Not served: v5 (KIP-890 part 2: the epoch bumped at every transaction end).
#include "broker/handlers/authorization_error.h"
#include "broker/handlers/coordinator_check.h"
#include "broker/handlers/handlers.h"
#include "broker/handlers/producer_fenced.h"
#include "protocol/messages/end_txn.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_end_txn(RequestContext& ctx) {
  const auto request = protocol::EndTxnRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  protocol::ErrorCode error =
      transactional_id_authorization_error(ctx, AclOperation::kWrite, request->transactional_id);
  if (error == protocol::ErrorCode::kNone) {
    error = transaction_coordinator_refusal(ctx, request->transactional_id);
  }
  if (error == protocol::ErrorCode::kNone) {
    error =
        ctx.broker.transactions().end_transaction(request->transactional_id, request->producer_id,
                                                  request->producer_epoch, request->committed);
  }
  protocol::EndTxnResponse response;
  response.error_code = fenced_for_version(error, ctx.version(), 2);
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
