// SPDX-License-Identifier: Apache-2.0
//
// TxnOffsetCommit (key 28): v0-4.
// - v0: a transactional producer commits a group's offsets within its transaction (the group
//   must have been added by AddOffsetsToTxn: INVALID_TXN_STATE otherwise). They stay pending
//   until EndTxn commits them (then they are the group's committed offsets) or aborts (then
//   they are dropped); meanwhile OffsetFetch with require_stable answers
//   UNSTABLE_OFFSET_COMMIT for those partitions. Unknown id or other producer id:
//   INVALID_PRODUCER_ID_MAPPING; old epoch: INVALID_PRODUCER_EPOCH. Unknown partitions get
//   UNKNOWN_TOPIC_OR_PARTITION; metadata above --offset-metadata-max-bytes
//   OFFSET_METADATA_TOO_LARGE.
// - v1: same layout. v2: committed_leader_epoch (not kept).
// - v3: flexible; generation_id, member_id, group_instance_id fence the commit as
//   OffsetCommit's do (ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID, FENCED_INSTANCE_ID); without
//   them (v0-2) the commit is not fenced, as in Kafka. v4: same layout.
#include "broker/handlers/authorization_error.h"
#include "broker/handlers/handlers.h"
#include "protocol/messages/txn_offset_commit.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_txn_offset_commit(RequestContext& ctx) {
  const auto request = protocol::TxnOffsetCommitRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  Cluster& cluster = ctx.broker.cluster();
  OffsetCommitParams params;
  params.group_id = std::string(request->group_id);
  params.generation_id = request->generation_id;
  params.member_id = std::string(request->member_id);
  if (request->group_instance_id) {
    params.group_instance_id = std::string(*request->group_instance_id);
  }
  // Kafka: WRITE on the transactional id, then READ on the group (either refusal answers every
  // partition), then READ on each topic (else TOPIC_AUTHORIZATION_FAILED for its partitions).
  protocol::ErrorCode refusal =
      transactional_id_authorization_error(ctx, AclOperation::kWrite, request->transactional_id);
  if (refusal == protocol::ErrorCode::kNone) {
    refusal = group_authorization_error(ctx, AclOperation::kRead, request->group_id);
  }
  std::vector<bool> topic_denied;  // by the request's topic index; empty: every topic allowed
  if (refusal == protocol::ErrorCode::kNone && ctx.authorizing()) {
    for (const auto& topic : request->topics) {
      topic_denied.push_back(
          !ctx.allowed(AclOperation::kRead, AclResourceType::kTopic, topic.name));
    }
  }
  const auto denied = [&](std::size_t topic_index) {
    return topic_index < topic_denied.size() && topic_denied[topic_index];
  };
  for (std::size_t t = 0; t < request->topics.size() && refusal == protocol::ErrorCode::kNone;
       ++t) {
    const auto& topic = request->topics[t];
    if (denied(t)) continue;
    for (const auto& partition : topic.partitions) {
      if (cluster.find_partition(topic.name, partition.partition_index) == nullptr) continue;
      params.offsets.push_back(
          PartitionOffset{{std::string(topic.name), partition.partition_index},
                          {.offset = partition.committed_offset,
                           .metadata = std::string(partition.committed_metadata.value_or("")),
                           .leader_epoch = partition.committed_leader_epoch}});
    }
  }
  const std::vector<protocol::ErrorCode> errors =
      refusal != protocol::ErrorCode::kNone
          ? std::vector<protocol::ErrorCode>{}
          : ctx.broker.transactions().commit_offsets(
                request->transactional_id, request->producer_id, request->producer_epoch, params);
  std::size_t next = 0;
  protocol::TxnOffsetCommitResponse response;
  for (std::size_t t = 0; t < request->topics.size(); ++t) {
    const auto& topic = request->topics[t];
    auto& topic_response = response.topics.emplace_back();
    topic_response.name = std::string(topic.name);
    for (const auto& partition : topic.partitions) {
      protocol::ErrorCode error = protocol::ErrorCode::kUnknownTopicOrPartition;
      if (refusal != protocol::ErrorCode::kNone) {
        error = refusal;
      } else if (denied(t)) {
        error = protocol::ErrorCode::kTopicAuthorizationFailed;
      } else if (cluster.find_partition(topic.name, partition.partition_index) != nullptr) {
        error = next < errors.size() ? errors[next] : protocol::ErrorCode::kUnknownServerError;
        ++next;
      }
      topic_response.partitions.push_back(
          {.partition_index = partition.partition_index, .error_code = error});
    }
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
