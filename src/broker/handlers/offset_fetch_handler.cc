// SPDX-License-Identifier: Apache-2.0
//
// OffsetFetch (key 9): v1.
// - v1: the committed offset and metadata of each partition asked for; offset -1 and empty
//   metadata where nothing is committed (also for a group that does not exist). Answered in
//   every group state, without a membership check.
// - A partition named more than once is answered once (Kafka collects them in a map), so the
//   response grows with what is committed, not with the request's repetitions.
// - Not served: v0 (ZooKeeper offsets), v2+ (null topics meaning "all"; the coordinator
//   supports it through fetch_offsets(group, nullopt)).
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "broker/handlers/handlers.h"
#include "broker/handlers/partition_key.h"
#include "protocol/messages/offset_fetch.h"

namespace kgroups::broker::handlers {

asio::awaitable<Reply> handle_offset_fetch(RequestContext& ctx) {
  const auto request = protocol::OffsetFetchRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  std::optional<std::vector<TopicPartition>> partitions;
  if (request->topics) {
    partitions.emplace();
    std::unordered_set<PartitionKey, PartitionKeyHash> seen;
    for (const auto& topic : *request->topics) {
      for (const std::int32_t partition : topic.partition_indexes) {
        if (!seen.insert(PartitionKey{topic.name, partition}).second) continue;
        partitions->push_back(TopicPartition{std::string(topic.name), partition});
      }
    }
  }
  CoordinatorService& groups = ctx.broker.groups();
  const std::vector<PartitionOffset> offsets =
      groups.coordinator().fetch_offsets(request->group_id, partitions);
  groups.schedule_expiries(co_await asio::this_coro::executor);

  protocol::OffsetFetchResponse response;
  for (const PartitionOffset& offset : offsets) {
    if (response.topics.empty() || response.topics.back().name != offset.topic_partition.topic) {
      response.topics.emplace_back().name = offset.topic_partition.topic;
    }
    protocol::OffsetFetchResponse::Partition partition;
    partition.partition_index = offset.topic_partition.partition;
    partition.committed_offset = offset.committed.offset;
    partition.metadata = offset.committed.metadata;
    response.topics.back().partitions.push_back(std::move(partition));
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
