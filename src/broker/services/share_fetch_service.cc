// SPDX-License-Identifier: Apache-2.0
#include "broker/services/share_fetch_service.h"

#include <algorithm>
#include <asio/this_coro.hpp>
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;
using protocol::ShareAcknowledgeRequest;
using protocol::ShareAcknowledgeResponse;
using protocol::ShareFetchRequest;
using protocol::ShareFetchResponse;

// Bytes 21-22 of a record batch (v2) are its attributes; bit 5 marks a control batch.
constexpr std::size_t kAttributesAt = 21;
constexpr std::uint16_t kControlBit = 0x20;
// The gap type, archiving an offset that holds no deliverable record.
constexpr auto kGap = share::AcknowledgeType::kGap;

bool is_control(const StoredBatch& batch) {
  if (batch.size_bytes < kAttributesAt + 2) return false;
  const auto attributes =
      static_cast<std::uint16_t>((batch.data[kAttributesAt] << 8U) | batch.data[kAttributesAt + 1]);
  return (attributes & kControlBit) != 0;
}

// Acknowledgement batches (one type for the whole range, or one per offset) as one
// acknowledgement per offset. INVALID_REQUEST for a malformed batch; INVALID_RECORD_STATE for
// a range longer than any share-partition can hold in flight.
template <class Batches>
ErrorCode expand_acknowledgements(const Batches& batches,
                                  std::vector<share::Acknowledgement>& out) {
  for (const auto& batch : batches) {
    if (batch.first_offset < 0 || batch.last_offset < batch.first_offset) {
      return ErrorCode::kInvalidRequest;
    }
    const std::int64_t count = batch.last_offset - batch.first_offset + 1;
    if (count > share::kMaxPartitionMaxRecordLocks) return ErrorCode::kInvalidRecordState;
    const auto& types = batch.acknowledge_types;
    if (types.size() != 1 && static_cast<std::int64_t>(types.size()) != count) {
      return ErrorCode::kInvalidRequest;
    }
    for (std::int64_t i = 0; i < count; ++i) {
      const std::int8_t type = types.size() == 1 ? types[0] : types[static_cast<std::size_t>(i)];
      if (type < 0 || type > 3) return ErrorCode::kInvalidRequest;  // 4 (renew) is v2's
      out.push_back({batch.first_offset + i, static_cast<share::AcknowledgeType>(type)});
    }
  }
  return ErrorCode::kNone;
}

struct PartitionAnswer {
  SharePartitionRef ref;
  ErrorCode error = ErrorCode::kNone;
  std::optional<ErrorCode> acknowledge_error;  // set when the request acknowledged here
  std::int32_t leader_id = -1;
  std::int32_t leader_epoch = -1;
  std::vector<protocol::ByteView> records;
  std::vector<share::AcquiredRange> acquired;
};

}  // namespace

ShareFetchService::ShareFetchService(const BrokerConfig& config, Cluster& cluster,
                                     AppendNotifier& notifier, const ByteBudget& response_memory,
                                     CoordinatorService& groups)
    : config_(config),
      cluster_(cluster),
      notifier_(notifier),
      response_memory_(response_memory),
      groups_(groups),
      sessions_(static_cast<std::size_t>(config.max_share_sessions),
                static_cast<std::size_t>(config.max_partitions)) {}

namespace {

// The answers of a request, by partition, in the order first named.
class Answers {
 public:
  PartitionAnswer& at(const SharePartitionRef& ref) {
    const auto found = index_.find(ref);
    if (found != index_.end()) return answers_[found->second];
    index_.emplace(ref, answers_.size());
    PartitionAnswer& answer = answers_.emplace_back();
    answer.ref = ref;
    return answer;
  }
  std::vector<PartitionAnswer>& all() { return answers_; }

 private:
  std::vector<PartitionAnswer> answers_;
  std::map<SharePartitionRef, std::size_t> index_;
};

template <class Response>
void fill_topics(std::vector<PartitionAnswer>& answers, Response& response, bool with_records) {
  for (PartitionAnswer& answer : answers) {
    if (response.responses.empty() || response.responses.back().topic_id != answer.ref.topic_id) {
      auto& topic = response.responses.emplace_back();
      topic.topic_id = answer.ref.topic_id;
    }
    auto& partition = response.responses.back().partitions.emplace_back();
    partition.partition_index = answer.ref.partition;
    partition.current_leader.leader_id = answer.leader_id;
    partition.current_leader.leader_epoch = answer.leader_epoch;
    if constexpr (std::is_same_v<Response, ShareFetchResponse>) {
      partition.error_code = answer.error;
      partition.acknowledge_error_code = answer.acknowledge_error.value_or(ErrorCode::kNone);
      if (with_records) {
        partition.records = std::move(answer.records);
        for (const share::AcquiredRange& range : answer.acquired) {
          auto& acquired = partition.acquired_records.emplace_back();
          acquired.first_offset = range.first_offset;
          acquired.last_offset = range.last_offset;
          acquired.delivery_count = static_cast<std::int16_t>(range.delivery_count);
        }
      }
    } else {
      partition.error_code = answer.acknowledge_error.value_or(answer.error);
    }
  }
}

}  // namespace

namespace {

struct ShareCall {
  std::string_view group_id;
  std::string_view member_id;
};

// Applies the acknowledgements of one partition and returns their error.
ErrorCode apply_acknowledgements(CoordinatorService& groups, Cluster& cluster,
                                 const ShareCall& call, const SharePartitionRef& ref,
                                 const auto& batches, FetchTopicGate* gate) {
  std::vector<share::Acknowledgement> acks;
  const ErrorCode malformed = expand_acknowledgements(batches, acks);
  if (malformed != ErrorCode::kNone) return malformed;
  const StoredTopic* topic = cluster.find_topic(ref.topic_id);
  if (topic == nullptr) return ErrorCode::kUnknownTopicId;
  if (gate != nullptr && !gate->may_read(topic->name)) return ErrorCode::kTopicAuthorizationFailed;
  if (ref.partition < 0 || static_cast<std::size_t>(ref.partition) >= topic->partitions.size()) {
    return ErrorCode::kUnknownTopicOrPartition;
  }
  const share::AcknowledgeRefusal refusal =
      groups.share().acknowledge(call.group_id, call.member_id, ref.topic_id, ref.partition, acks);
  return refusal == share::AcknowledgeRefusal::kNone ? ErrorCode::kNone
                                                     : ErrorCode::kInvalidRecordState;
}

}  // namespace

asio::awaitable<std::optional<ShareFetchResponse>> ShareFetchService::fetch(
    const ShareFetchRequest& request, std::int16_t /*version*/, std::int32_t node,
    FetchTopicGate* gate) {
  ShareFetchResponse response;
  const ShareCall call{request.group_id.value_or(std::string_view{}),
                       request.member_id.value_or(std::string_view{})};
  if (call.group_id.empty() || call.member_id.empty()) {
    response.error_code = ErrorCode::kInvalidRequest;
    response.error_message = "GroupId and MemberId are required";
    co_return response;
  }
  std::vector<SharePartitionRef> added;
  bool acknowledges = false;
  for (const auto& topic : request.topics) {
    for (const auto& partition : topic.partitions) {
      added.push_back({topic.topic_id, partition.partition_index});
      acknowledges = acknowledges || !partition.acknowledgement_batches.empty();
    }
  }
  if (request.share_session_epoch == kOpenShareSessionEpoch && acknowledges) {
    response.error_code = ErrorCode::kInvalidRequest;
    response.error_message = "Acknowledge data present on initial share fetch request";
    co_return response;
  }
  std::vector<SharePartitionRef> forgotten;
  for (const auto& topic : request.forgotten_topics_data) {
    for (const std::int32_t partition : topic.partitions) {
      forgotten.push_back({topic.topic_id, partition});
    }
  }
  if (request.share_session_epoch == kOpenShareSessionEpoch && sessions_.full()) {
    // Sessions of members that left their group (or whose session timed out) make room.
    sessions_.forget_if([this](std::string_view group_id, std::string_view member_id) {
      return groups_.share().check_member(group_id, member_id) != GroupError::kNone;
    });
  }
  ShareSessionCache::Update session =
      sessions_.apply(call.group_id, call.member_id, request.share_session_epoch, added, forgotten);
  if (session.error != ErrorCode::kNone) {
    response.error_code = session.error;
    response.error_message = std::move(session.message);
    co_return response;
  }
  groups_.begin_share_call();
  response.acquisition_lock_timeout_ms =
      static_cast<std::int32_t>(groups_.share().record_lock_duration_ms(call.group_id));
  Answers answers;
  for (const auto& topic : request.topics) {
    for (const auto& partition : topic.partitions) {
      if (partition.acknowledgement_batches.empty()) continue;
      const SharePartitionRef ref{topic.topic_id, partition.partition_index};
      answers.at(ref).acknowledge_error = apply_acknowledgements(
          groups_, cluster_, call, ref, partition.acknowledgement_batches, gate);
    }
  }
  if (session.closed) {
    groups_.share().release_member_records(call.group_id, call.member_id);
    fill_topics(answers.all(), response, false);
    groups_.finish_call();
    co_return response;
  }
  const std::int32_t wait_ms = std::clamp(request.max_wait_ms, 0, config_.max_fetch_wait_ms);
  const auto deadline = asio::steady_timer::clock_type::now() + std::chrono::milliseconds(wait_ms);
  const auto max_bytes =
      static_cast<std::size_t>(std::clamp(request.max_bytes, 0, config_.fetch_max_bytes));
  const int max_records = std::max(request.max_records, 1);
  // Every session partition gets an answer on a session's first request; later only those
  // with records, an error, or acknowledgements.
  const bool full = request.share_session_epoch == kOpenShareSessionEpoch;
  std::vector<const BatchLog*> logs;
  std::vector<share::AcquiredRange> taken;  // one batch's acquired ranges, reused
  for (;;) {
    logs.clear();
    std::size_t bytes = 0;
    int remaining = max_records;
    bool has_error = false;
    const auto room = static_cast<std::size_t>(response_memory_.available());
    for (const SharePartitionRef& ref : session.partitions) {
      PartitionAnswer* answer = full ? &answers.at(ref) : nullptr;
      const auto answer_now = [&]() -> PartitionAnswer& {
        if (answer == nullptr) answer = &answers.at(ref);
        return *answer;
      };
      const StoredTopic* topic = cluster_.find_topic(ref.topic_id);
      if (topic == nullptr || ref.partition < 0 ||
          static_cast<std::size_t>(ref.partition) >= topic->partitions.size()) {
        answer_now().error =
            topic == nullptr ? ErrorCode::kUnknownTopicId : ErrorCode::kUnknownTopicOrPartition;
        has_error = true;
        continue;
      }
      if (gate != nullptr && !gate->may_read(topic->name)) {
        answer_now().error = ErrorCode::kTopicAuthorizationFailed;
        has_error = true;
        continue;
      }
      const BatchLog& log = topic->partitions[static_cast<std::size_t>(ref.partition)];
      std::int64_t high_watermark = log.high_watermark();
      if (replication_ != nullptr) {
        const ReplicationController::LeaderCheck check = replication_->check_leader(log, node, -1);
        if (check.error != ErrorCode::kNone) {
          answer_now().error = check.error;
          has_error = true;
          continue;
        }
        if (check.leadership == Leadership::kStaleLeader) {
          high_watermark = std::min(high_watermark, log.replicas().stale_leader().high_watermark);
        }
      }
      logs.push_back(&log);
      if (remaining <= 0) continue;
      const std::optional<std::int64_t> start = groups_.share().start_acquiring(
          call.group_id, ref.topic_id, ref.partition, log.log_start_offset());
      if (!start || *start >= high_watermark) continue;
      const std::int64_t from = *start;
      for (const StoredBatch& batch : log.batches_from(from)) {
        if (batch.base_offset >= high_watermark || remaining <= 0) break;
        if (batch.last_offset < from) continue;
        if ((bytes > 0 && bytes + batch.size_bytes > max_bytes) ||
            bytes + batch.size_bytes > room) {
          break;
        }
        taken.clear();
        const int count =
            groups_.share().acquire(call.group_id, call.member_id, ref.topic_id, ref.partition,
                                    batch.last_offset + 1, remaining, taken);
        if (count == 0) break;  // not a member, the window is full, or no memory left
        if (is_control(batch)) {
          std::vector<share::Acknowledgement> gaps;
          for (const share::AcquiredRange& range : taken) {
            for (std::int64_t o = range.first_offset; o <= range.last_offset; ++o) {
              gaps.push_back({o, kGap});
            }
          }
          groups_.share().acknowledge(call.group_id, call.member_id, ref.topic_id, ref.partition,
                                      gaps);
          continue;
        }
        PartitionAnswer& out = answer_now();
        out.records.emplace_back(batch.bytes());
        out.acquired.insert(out.acquired.end(), taken.begin(), taken.end());
        bytes += batch.size_bytes;
        remaining -= count;
      }
    }
    const bool acquired_some = remaining < max_records;
    if (acquired_some || has_error || asio::steady_timer::clock_type::now() >= deadline) break;
    groups_.finish_call();
    co_await notifier_.wait_until(deadline, logs);
    const asio::cancellation_state state = co_await asio::this_coro::cancellation_state;
    if (state.cancelled() != asio::cancellation_type::none) co_return std::nullopt;
    groups_.begin_share_call();
  }
  for (PartitionAnswer& answer : answers.all()) {
    if (answer.error == ErrorCode::kNone) answer.leader_id = node;
    if (answer.error == ErrorCode::kNone) answer.leader_epoch = 0;
  }
  fill_topics(answers.all(), response, true);
  groups_.finish_call();
  co_return response;
}

ShareAcknowledgeResponse ShareFetchService::acknowledge(const ShareAcknowledgeRequest& request,
                                                        std::int16_t version, std::int32_t node,
                                                        FetchTopicGate* gate) {
  ShareAcknowledgeResponse response;
  const ShareCall call{request.group_id.value_or(std::string_view{}),
                       request.member_id.value_or(std::string_view{})};
  if (call.group_id.empty() || call.member_id.empty()) {
    response.error_code = ErrorCode::kInvalidRequest;
    response.error_message = "GroupId and MemberId are required";
    return response;
  }
  if (request.share_session_epoch == kOpenShareSessionEpoch) {
    response.error_code = ErrorCode::kInvalidShareSessionEpoch;
    response.error_message = "a share session is opened by ShareFetch, not ShareAcknowledge";
    return response;
  }
  ShareSessionCache::Update session =
      sessions_.touch(call.group_id, call.member_id, request.share_session_epoch);
  if (session.error != ErrorCode::kNone) {
    response.error_code = session.error;
    response.error_message = std::move(session.message);
    return response;
  }
  groups_.begin_share_call();
  if (version >= 2) {
    response.acquisition_lock_timeout_ms =
        static_cast<std::int32_t>(groups_.share().record_lock_duration_ms(call.group_id));
  }
  Answers answers;
  for (const auto& topic : request.topics) {
    for (const auto& partition : topic.partitions) {
      const SharePartitionRef ref{topic.topic_id, partition.partition_index};
      PartitionAnswer& answer = answers.at(ref);
      answer.acknowledge_error = apply_acknowledgements(groups_, cluster_, call, ref,
                                                        partition.acknowledgement_batches, gate);
      if (*answer.acknowledge_error == ErrorCode::kNone) {
        answer.leader_id = node;
        answer.leader_epoch = 0;
      }
    }
  }
  if (session.closed) groups_.share().release_member_records(call.group_id, call.member_id);
  fill_topics(answers.all(), response, false);
  groups_.finish_call();
  return response;
}

}  // namespace kgroups::broker
