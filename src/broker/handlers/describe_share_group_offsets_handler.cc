// SPDX-License-Identifier: Apache-2.0
//
// DescribeShareGroupOffsets (key 90): v0-1, flexible. Each named group, its topics (null:
// every share-partition it has) with each partition's start offset (-1 when the group has
// no state for it); v1: lag, the records from the start offset to the high watermark not
// yet accepted, rejected or archived. A topic that does not exist gets
// UNKNOWN_TOPIC_OR_PARTITION for its partitions; a group that is not a share group,
// GROUP_ID_NOT_FOUND.
// Answered at the group's coordinator only (NOT_COORDINATOR elsewhere, --brokers).
#include <string>
#include <utility>

#include "broker/handlers/authorization_error.h"
#include "broker/handlers/coordinator_check.h"
#include "broker/handlers/group_error_code.h"
#include "broker/handlers/handlers.h"
#include "protocol/messages/describe_share_group_offsets.h"

namespace kgroups::broker::handlers {
namespace {

using protocol::ErrorCode;

const SharePartitionDescription* find_partition(const ShareGroupDescription& description,
                                                const TopicId& topic_id, std::int32_t partition) {
  for (const SharePartitionDescription& described : description.partitions) {
    if (described.topic_id == topic_id && described.partition == partition) return &described;
  }
  return nullptr;
}

template <class Out>
void describe_partition(const ShareGroupDescription& description, const StoredTopic& topic,
                        std::int32_t partition, Out& out) {
  out.partition_index = partition;
  out.leader_epoch = 0;
  if (partition < 0 || static_cast<std::size_t>(partition) >= topic.partitions.size()) {
    out.start_offset = -1;
    out.error_code = ErrorCode::kUnknownTopicOrPartition;
    return;
  }
  const SharePartitionDescription* found = find_partition(description, topic.id, partition);
  if (found == nullptr) {
    out.start_offset = -1;
    return;
  }
  out.start_offset = found->start_offset;
  const std::int64_t high_watermark =
      topic.partitions[static_cast<std::size_t>(partition)].high_watermark();
  const std::int64_t done = found->in_flight.acknowledged + found->in_flight.archived;
  out.lag = std::max<std::int64_t>(0, high_watermark - found->start_offset - done);
}

}  // namespace

asio::awaitable<Reply> handle_describe_share_group_offsets(RequestContext& ctx) {
  const auto request = protocol::DescribeShareGroupOffsetsRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  protocol::DescribeShareGroupOffsetsResponse response;
  const Cluster& cluster = ctx.broker.cluster();
  for (const auto& asked : request->groups) {
    auto& group = response.groups.emplace_back();
    group.group_id = std::string(asked.group_id);
    // Kafka: DESCRIBE on the group, then on each topic (a topic asked for answers
    // TOPIC_AUTHORIZATION_FAILED, one not asked for is left out).
    group.error_code = group_authorization_error(ctx, AclOperation::kDescribe, asked.group_id);
    if (group.error_code != ErrorCode::kNone) {
      group.error_message = std::string(authorization_message(group.error_code));
      continue;
    }
    group.error_code =
        coordinator_refusal(ctx, protocol::ApiKey::kDescribeShareGroupOffsets, asked.group_id);
    if (group.error_code != ErrorCode::kNone) continue;
    const ShareGroupDescription description =
        ctx.broker.groups().describe_share_group(asked.group_id);
    if (description.error != GroupError::kNone) {
      group.error_code = to_error_code(description.error);
      group.error_message = "Group " + group.group_id + " is not a share group.";
      continue;
    }
    if (!asked.topics) {
      for (const SharePartitionDescription& described : description.partitions) {
        const StoredTopic* topic = cluster.find_topic(described.topic_id);
        if (topic == nullptr) continue;
        if ((group.topics.empty() || group.topics.back().topic_id != topic->id) &&
            !ctx.allowed(AclOperation::kDescribe, AclResourceType::kTopic, topic->name)) {
          continue;
        }
        if (group.topics.empty() || group.topics.back().topic_id != topic->id) {
          auto& out = group.topics.emplace_back();
          out.topic_name = topic->name;
          out.topic_id = topic->id;
        }
        describe_partition(description, *topic, described.partition,
                           group.topics.back().partitions.emplace_back());
      }
      continue;
    }
    for (const auto& asked_topic : *asked.topics) {
      auto& out = group.topics.emplace_back();
      out.topic_name = std::string(asked_topic.topic_name);
      const StoredTopic* topic = cluster.find_topic(asked_topic.topic_name);
      const bool denied =
          !ctx.allowed(AclOperation::kDescribe, AclResourceType::kTopic, asked_topic.topic_name);
      for (const std::int32_t partition : asked_topic.partitions) {
        auto& partition_out = out.partitions.emplace_back();
        if (denied) {
          partition_out.partition_index = partition;
          partition_out.start_offset = -1;
          partition_out.error_code = ErrorCode::kTopicAuthorizationFailed;
          continue;
        }
        if (topic == nullptr) {
          partition_out.partition_index = partition;
          partition_out.start_offset = -1;
          partition_out.error_code = ErrorCode::kUnknownTopicOrPartition;
          continue;
        }
        out.topic_id = topic->id;
        describe_partition(description, *topic, partition, partition_out);
      }
    }
  }
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
