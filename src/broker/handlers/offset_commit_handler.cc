// SPDX-License-Identifier: Apache-2.0
//
// OffsetCommit (key 8): v2.
// - v2: generation_id and member_id fence the commit as Kafka does (UNKNOWN_MEMBER_ID,
//   ILLEGAL_GENERATION, REBALANCE_IN_PROGRESS), so a member that lost a partition in a
//   rebalance cannot overwrite the new owner's commit; generation -1 with an empty member id
//   commits for a group without members. The group's error is given for every partition.
// - A partition the broker does not have gets UNKNOWN_TOPIC_OR_PARTITION and is not stored.
// - retention_time_ms is ignored: committed offsets live as long as the broker.
// - Not served: v0-1 (ZooKeeper-era and commit_timestamp), v3+.
#include <string>
#include <utility>

#include "broker/handlers/group_error_code.h"
#include "broker/handlers/handlers.h"
#include "protocol/messages/offset_commit.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_offset_commit(RequestContext& ctx) {
  const auto request = protocol::OffsetCommitRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  OffsetCommitParams params;
  params.group_id = std::string(request->group_id);
  params.generation_id = ctx.version() >= 1 ? request->generation_id : -1;
  params.member_id = std::string(request->member_id);
  for (const auto& topic : request->topics) {
    for (const auto& partition : topic.partitions) {
      if (ctx.broker.cluster().find_partition(topic.name, partition.partition_index) == nullptr) {
        continue;
      }
      params.offsets.push_back(PartitionOffset{
          {std::string(topic.name), partition.partition_index},
          {partition.committed_offset, std::string(partition.committed_metadata.value_or(""))}});
    }
  }
  CoordinatorService& groups = ctx.broker.groups();
  const protocol::ErrorCode error = to_error_code(groups.coordinator().commit_offsets(params));
  groups.schedule_expiries(co_await asio::this_coro::executor);

  protocol::OffsetCommitResponse response;
  for (const auto& topic : request->topics) {
    auto& topic_response = response.topics.emplace_back();
    topic_response.name = std::string(topic.name);
    for (const auto& partition : topic.partitions) {
      const bool known =
          ctx.broker.cluster().find_partition(topic.name, partition.partition_index) != nullptr;
      topic_response.partitions.push_back(protocol::OffsetCommitResponse::Partition{
          partition.partition_index,
          known ? error : protocol::ErrorCode::kUnknownTopicOrPartition});
    }
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
