// SPDX-License-Identifier: Apache-2.0
//
// OffsetFetch (key 9): v1-9.
// - v1: the committed offset and metadata of each partition asked for; offset -1 and empty
//   metadata where nothing is committed (also for a group that does not exist). Answered in
//   every group state, without a membership check.
// - v2: null topics asks for every committed partition; a group-level error code.
//   v3: throttle_time_ms (0). v5: committed_leader_epoch (as committed; -1 when
//   none was given). v6: flexible.
//   v7: require_stable: a partition with a transactional commit pending (TxnOffsetCommit
//   before its EndTxn) gets UNSTABLE_OFFSET_COMMIT and offset -1, as in Kafka; without it
//   the committed offset is answered as usual.
// - v8: several groups in one request, each answered on its own. v9: member id and epoch:
//   for a consumer-group protocol (KIP-848) group, a member that is not one gets
//   UNKNOWN_MEMBER_ID and an old epoch STALE_MEMBER_EPOCH, as the group's error.
// - A partition named more than once is answered once (Kafka collects them in a map), so the
//   response grows with what is committed, not with the request's repetitions; so is a group.
// - Injected errors (POST /v1/faults): an armed OffsetFetch or coordinator fault gives the
//   group its error (v1: each partition asked for), with no offsets.
// - Not served: v0 (ZooKeeper offsets).
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "broker/handlers/authorization_error.h"
#include "broker/handlers/coordinator_check.h"
#include "broker/handlers/group_error_code.h"
#include "broker/handlers/handlers.h"
#include "broker/handlers/take_denied.h"
#include "broker/storage/partition_key.h"
#include "protocol/messages/offset_fetch.h"

namespace kgroups::broker::handlers {
namespace {

// The partitions `topics` names, each once; nullopt for a null list (every committed one).
template <class Topics>
std::optional<std::vector<TopicPartition>> wanted_partitions(const std::optional<Topics>& topics) {
  if (!topics) return std::nullopt;
  std::vector<TopicPartition> partitions;
  std::unordered_set<PartitionKey, PartitionKeyHash> seen;
  for (const auto& topic : *topics) {
    for (const std::int32_t partition : topic.partition_indexes) {
      if (!seen.insert(PartitionKey{topic.name, partition}).second) continue;
      partitions.push_back(TopicPartition{std::string(topic.name), partition});
    }
  }
  return partitions;
}

// Appends `offsets` (grouped by topic, as the coordinators return them) to `topics`; with
// `require_stable`, a partition with a pending transactional commit gets
// UNSTABLE_OFFSET_COMMIT instead of its offset.
template <class StoredTopic>
void add_offsets(std::vector<StoredTopic>& topics, const std::vector<PartitionOffset>& offsets,
                 bool require_stable, const TransactionCoordinator& transactions,
                 std::string_view group_id) {
  for (const PartitionOffset& offset : offsets) {
    if (topics.empty() || topics.back().name != offset.topic_partition.topic) {
      topics.emplace_back().name = offset.topic_partition.topic;
    }
    auto& partition = topics.back().partitions.emplace_back();
    partition.partition_index = offset.topic_partition.partition;
    if (require_stable && transactions.has_pending_offset(group_id, offset.topic_partition.topic,
                                                          offset.topic_partition.partition)) {
      partition.error_code = protocol::ErrorCode::kUnstableOffsetCommit;
      continue;
    }
    partition.committed_offset = offset.committed.offset;
    partition.metadata = offset.committed.metadata;
    partition.committed_leader_epoch = offset.committed.leader_epoch;
  }
}

// Kafka: with every committed partition asked for, the topics the client may not DESCRIBE are
// left out (one lookup per topic: the offsets come grouped by topic).
void drop_undescribable(const RequestContext& ctx, std::vector<PartitionOffset>& offsets) {
  if (!ctx.authorizing()) return;
  std::string last_topic;  // a copy: erase_if moves the offsets it keeps
  bool last_allowed = true;
  bool first = true;
  std::erase_if(offsets, [&](const PartitionOffset& offset) {
    if (first || offset.topic_partition.topic != last_topic) {
      first = false;
      last_topic = offset.topic_partition.topic;
      last_allowed = ctx.allowed(AclOperation::kDescribe, AclResourceType::kTopic, last_topic);
    }
    return !last_allowed;
  });
}

// Kafka: topics asked for by name that the client may not DESCRIBE answer
// TOPIC_AUTHORIZATION_FAILED for each partition asked for.
template <class StoredTopic, class AskedTopic>
void add_denied(std::vector<StoredTopic>& topics, const std::vector<AskedTopic>& denied) {
  for (const AskedTopic& asked : denied) {
    auto& topic = topics.emplace_back();
    topic.name = std::string(asked.name);
    for (const std::int32_t index : asked.partition_indexes) {
      auto& partition = topic.partitions.emplace_back();
      partition.partition_index = index;
      partition.metadata = "";
      partition.error_code = protocol::ErrorCode::kTopicAuthorizationFailed;
    }
  }
}

// Counts the response's error codes (group and partition) in the broker's metrics.
void count_errors(const RequestContext& ctx, const protocol::OffsetFetchResponse& response) {
  ctx.count_error(response.error_code);
  for (const auto& topic : response.topics) {
    for (const auto& partition : topic.partitions) ctx.count_error(partition.error_code);
  }
  for (const auto& group : response.groups) {
    ctx.count_error(group.error_code);
    for (const auto& topic : group.topics) {
      for (const auto& partition : topic.partitions) ctx.count_error(partition.error_code);
    }
  }
}

}  // namespace

asio::awaitable<Reply> handle_offset_fetch(RequestContext& ctx) {
  auto request = protocol::OffsetFetchRequest::decode(ctx.body, ctx.version());
  if (!request) co_return ctx.close_because("malformed request body");
  CoordinatorService& groups = ctx.broker.groups();
  protocol::OffsetFetchResponse response;

  if (ctx.version() <= 7) {
    protocol::ErrorCode injected =
        group_authorization_error(ctx, AclOperation::kDescribe, request->group_id);
    if (injected == protocol::ErrorCode::kNone) {
      injected = coordinator_refusal(ctx, protocol::ApiKey::kOffsetFetch, request->group_id);
    }
    if (injected != protocol::ErrorCode::kNone) {
      response.error_code = injected;
      // v1 has no group-level error: each partition asked for carries it (Kafka does so).
      if (ctx.version() < 2 && request->topics) {
        for (const auto& topic : *request->topics) {
          auto& answered = response.topics.emplace_back();
          answered.name = std::string(topic.name);
          for (const std::int32_t partition : topic.partition_indexes) {
            answered.partitions.push_back({.partition_index = partition, .error_code = injected});
          }
        }
      }
      response.encode(ctx.response, ctx.version());
      co_return Reply::kSend;
    }
    using AskedTopic = decltype(request->topics)::value_type::value_type;
    const std::vector<AskedTopic> denied =
        request->topics ? take_denied_topics(ctx, *request->topics, AclOperation::kDescribe)
                        : std::vector<AskedTopic>{};
    GroupOffsetFetchResult result = groups.fetch_offsets(
        {.group_id = request->group_id, .partitions = wanted_partitions(request->topics)});
    if (!request->topics) drop_undescribable(ctx, result.offsets);
    response.error_code = to_error_code(result.error);
    add_offsets(response.topics, result.offsets, request->require_stable, ctx.broker.transactions(),
                request->group_id);
    if (result.error == GroupError::kNone) add_denied(response.topics, denied);
    count_errors(ctx, response);
    response.encode(ctx.response, ctx.version());
    co_return Reply::kSend;
  }

  std::unordered_set<std::string_view> seen;
  for (auto& group : request->groups) {
    if (!seen.insert(group.group_id).second) continue;
    protocol::ErrorCode injected =
        group_authorization_error(ctx, AclOperation::kDescribe, group.group_id);
    if (injected == protocol::ErrorCode::kNone) {
      injected = coordinator_refusal(ctx, protocol::ApiKey::kOffsetFetch, group.group_id);
    }
    if (injected != protocol::ErrorCode::kNone) {
      auto& answer = response.groups.emplace_back();
      answer.group_id = std::string(group.group_id);
      answer.error_code = injected;
      continue;
    }
    using AskedTopic = decltype(group.topics)::value_type::value_type;
    const std::vector<AskedTopic> denied =
        group.topics ? take_denied_topics(ctx, *group.topics, AclOperation::kDescribe)
                     : std::vector<AskedTopic>{};
    GroupOffsetFetchResult result =
        groups.fetch_offsets({.group_id = group.group_id,
                              .member_id = group.member_id,
                              .member_epoch = group.member_epoch,
                              .partitions = wanted_partitions(group.topics)});
    auto& answer = response.groups.emplace_back();
    answer.group_id = std::string(group.group_id);
    answer.error_code = to_error_code(result.error);
    if (result.error == GroupError::kNone) {
      if (!group.topics) drop_undescribable(ctx, result.offsets);
      add_offsets(answer.topics, result.offsets, request->require_stable, ctx.broker.transactions(),
                  group.group_id);
      add_denied(answer.topics, denied);
    }
  }
  count_errors(ctx, response);
  response.encode(ctx.response, ctx.version());
  co_return Reply::kSend;
}

}  // namespace kgroups::broker::handlers
