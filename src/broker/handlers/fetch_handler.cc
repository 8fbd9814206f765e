// SPDX-License-Identifier: Apache-2.0
//
// Fetch (key 1): v4-17.
// - v4: the first version with magic-2 batches, which are served exactly as stored, so no
//   down-conversion is ever needed (librdkafka needs v4 in range for message format v2).
// - v5: log_start_offset in the answer. v6: same layout (Kafka: KAFKA_STORAGE_ERROR may be
//   answered). v8: same layout (Kafka: quota throttling comes first; kgroupsd never
//   throttles, throttle_time_ms is 0). v10: same layout (Kafka: zstd batches may be served;
//   they are served as stored). v14: same layout (Kafka: OFFSET_MOVED_TO_TIERED_STORAGE may
//   be answered; nothing is tiered here, so it never is).
// - v7+: fetch sessions (KIP-227), kept by FetchSessionCache (fetch_session_cache.h): a full
//   fetch with epoch 0 gets a session id (0 when --max-fetch-sessions are all in use and
//   none has been idle for 2 minutes), an incremental fetch covers every partition of its
//   session and lists only those with records, an error, or a changed high watermark, last
//   stable offset or log start offset; forgotten_topics_data leaves the session. Session errors
//   (FETCH_SESSION_ID_NOT_FOUND, INVALID_FETCH_SESSION_EPOCH, FETCH_SESSION_TOPIC_ID_ERROR)
//   are top-level, with session id 0 and no topics.
// - v9: current_leader_epoch is accepted and not checked (one broker, leader epoch 0 in
//   Metadata, no elections). v11: rack_id is ignored; preferred_read_replica is -1.
// - v12: flexible; last_fetched_epoch is not checked (no diverging epochs), so the tagged
//   diverging_epoch, current_leader and snapshot_id are never sent.
// - v13: topics by id (KIP-516) in the request and the answer; an unknown id gets
//   UNKNOWN_TOPIC_ID for each of its partitions.
// - v15: replica_state (tagged) replaces replica_id; both are ignored (no follower fetching).
// - v16 (KIP-951): node_endpoints (tagged) is sent only with NOT_LEADER errors in Kafka, which
//   one broker never gives: never sent. v17: replica_directory_id (tagged) is ignored.
// - Long polling: the answer waits until the partitions hold at least min_bytes of batches
//   from the fetch offsets, or max_wait_ms passes (capped at --max-fetch-wait-ms); a Produce
//   wakes only the fetches waiting on a partition it appended to. Errors (unknown partition,
//   offset out of range, e.g. below a log start offset that retention moved) answer at once.
//   The wait suspends only this connection.
// - A partition named more than once is answered once, with the parameters it was named with
//   last, in the order first named (Kafka keeps the partitions in a map).
// - Limits: batches are whole; a partition gets batches while they fit partition_max_bytes and
//   the response's max_bytes (at most --fetch-max-bytes), except that the first batch of the
//   response is always included so that a consumer can progress past a batch larger than its
//   limits (KIP-74). Record bytes also never exceed the room left in the broker's share for
//   unsent responses (--max-unsent-bytes): short of room, the fetch waits for it until its
//   deadline, then answers with what fits.
// - isolation_level (v4+; fetch_partition_read.h): read_uncommitted (0) reads up to the high
//   watermark, control batches included (clients skip them), with aborted_transactions null;
//   read_committed (1) reads only batches below the last stable offset (the first offset of
//   the oldest open transaction, else the high watermark), so min_bytes counts only those and
//   a long poll at the last stable offset waits for a commit or abort marker (its append
//   wakes it), and aborted_transactions lists (producer_id, first_offset) of each aborted
//   transaction whose range [first offset, abort marker] overlaps [fetch offset, end of the
//   batches sent) (Kafka's upper bound is the end of the data read too). last_stable_offset
//   is answered at both levels, -1 with an unknown partition. Another isolation_level gets
//   INVALID_REQUEST for every partition named (and at the top level from v7), and touches no
//   session.
// - Injected errors (POST /v1/faults): a partition an armed Fetch fault matches answers its
//   error at once, without records (high watermark -1), as an unknown partition does.
// - Records delivered again to a consumer group (docs/HTTP-API.md's records_replayed): each
//   partition answered with records is told to the broker's ReplayTracker with the request's
//   client id and the connection's address.
// - Zero-copy: when the connection splices (RequestContext::pins), the records are not copied
//   into the response: the stored batches go to the socket from the log's segments in one
//   gathered write, their segments pinned until it is done (the bytes are the same).
// - Authorization (with the authorizer on), as Kafka: a consumer needs READ on each topic, a
//   follower (replica id >= 0) CLUSTER_ACTION on the cluster; else the partitions answer
//   TOPIC_AUTHORIZATION_FAILED. An unknown topic id answers UNKNOWN_TOPIC_ID whatever the
//   client may do. Checked for every partition of the fetch session, on every pass of a long
//   poll, one authorizer lookup per topic per request. (Kafka answers a follower without
//   CLUSTER_ACTION TOPIC_AUTHORIZATION_FAILED even for an unknown topic id.)
// - Not implemented: follower fetching (replica_id is ignored).
#include <optional>

#include "broker/handlers/handlers.h"
#include "broker/handlers/topic_read_gate.h"
#include "protocol/messages/fetch.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_fetch(RequestContext& ctx) {
  const auto request = protocol::FetchRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  PartitionFaults faults = ctx.broker.faults().partition_faults(protocol::ApiKey::kFetch);
  const FetchingClient client{.client_id = ctx.header.client_id.value_or(std::string_view{}),
                              .peer = ctx.peer};
  std::optional<TopicReadGate> gate;
  if (ctx.authorizing()) {
    gate.emplace(ctx);
    constexpr std::int16_t kFirstReplicaStateVersion = 15;
    const std::int32_t replica_id = ctx.version() >= kFirstReplicaStateVersion
                                        ? request->replica_state.replica_id
                                        : request->replica_id;
    if (replica_id >= 0) gate->answer_all(ctx.allowed_on_cluster(AclOperation::kClusterAction));
  }
  const auto response = co_await ctx.broker.fetches().fetch(
      *request, ctx.version(), &faults, &client, ctx.pins, ctx.node_id, gate ? &*gate : nullptr);
  faults.settle();
  if (!response) co_return ctx.close_because("connection closing during a long-polling fetch");
  ctx.count_error(response->error_code);
  for (const auto& topic : response->responses) {
    for (const auto& partition : topic.partitions) ctx.count_error(partition.error_code);
  }
  response->encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
