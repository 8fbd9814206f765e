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
  for (const auto& topic : request->topics) {
    for (const auto& partition : topic.partitions) {
      if (cluster.find_partition(topic.name, partition.partition_index) == nullptr) continue;
      params.offsets.push_back(
          PartitionOffset{{std::string(topic.name), partition.partition_index},
                          {.offset = partition.committed_offset,
                           .metadata = std::string(partition.committed_metadata.value_or("")),
                           .leader_epoch = partition.committed_leader_epoch}});
    }
  }
  const std::vector<protocol::ErrorCode> errors = ctx.broker.transactions().commit_offsets(
      request->transactional_id, request->producer_id, request->producer_epoch, params);
  std::size_t next = 0;
  protocol::TxnOffsetCommitResponse response;
  for (const auto& topic : request->topics) {
    auto& topic_response = response.topics.emplace_back();
    topic_response.name = std::string(topic.name);
    for (const auto& partition : topic.partitions) {
      protocol::ErrorCode error = protocol::ErrorCode::kUnknownTopicOrPartition;
      if (cluster.find_partition(topic.name, partition.partition_index) != nullptr) {
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
