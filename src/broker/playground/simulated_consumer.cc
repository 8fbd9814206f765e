// SPDX-License-Identifier: Apache-2.0
#include "broker/playground/simulated_consumer.h"

#include <algorithm>
#include <asio/post.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <system_error>
#include <utility>

#include "broker/coordinator/consumer_protocol.h"
#include "broker/playground/leader_assignment.h"
#include "group/assignor_catalog.h"

namespace kgroups::broker::playground {
namespace {

bool is_retriable_join_error(GroupError error) {
  return error == GroupError::kCoordinatorLoadInProgress ||
         error == GroupError::kCoordinatorNotAvailable || error == GroupError::kRebalanceInProgress;
}

// The partitions of `topic` in a consumer-protocol assignment, ascending.
std::vector<std::int32_t> assigned_partitions(std::span<const std::uint8_t> bytes,
                                              const std::string& topic) {
  std::vector<std::int32_t> partitions;
  const auto decoded = consumer_assignment_partitions(bytes);
  if (!decoded) return partitions;
  for (const AssignedTopicPartitions& entry : *decoded) {
    if (entry.topic == topic) {
      partitions.insert(partitions.end(), entry.partitions.begin(), entry.partitions.end());
    }
  }
  std::sort(partitions.begin(), partitions.end());
  partitions.erase(std::unique(partitions.begin(), partitions.end()), partitions.end());
  return partitions;
}

}  // namespace

SimulatedConsumer::SimulatedConsumer(int id, ConsumerSettings settings, Broker& broker,
                                     DeliveredOffsets& delivered, asio::any_io_executor executor,
                                     const PlaygroundTiming& timing)
    : id_(id),
      settings_(std::move(settings)),
      broker_(broker),
      delivered_(delivered),
      executor_(std::move(executor)),
      timing_(timing),
      timer_(executor_) {}

void SimulatedConsumer::start() {
  last_commit_ = Clock::now();  // the auto-commit interval counts from the start
  join();
  schedule_tick();
}

void SimulatedConsumer::leave() {
  if (state_ == State::kStopped) return;
  if (state_ == State::kStable) commit();
  if (!member_id_.empty()) {
    broker_.groups().leave_group(settings_.group, {LeavingMember{member_id_, std::nullopt}});
  }
  stop({});
}

void SimulatedConsumer::crash() {
  if (state_ != State::kStopped) stop({});
}

std::vector<std::int32_t> SimulatedConsumer::assignment() const {
  std::vector<std::int32_t> partitions;
  partitions.reserve(positions_.size());
  for (const auto& [partition, position] : positions_) partitions.push_back(partition);
  return partitions;
}

void SimulatedConsumer::schedule_tick() {
  timer_.expires_after(timing_.consumer_tick);
  timer_.async_wait([weak = weak_from_this()](const std::error_code& error) {
    if (error) return;
    if (const auto self = weak.lock()) self->on_tick();
  });
}

void SimulatedConsumer::on_tick() {
  if (state_ == State::kStopped) return;
  consume();
  const Clock::time_point now = Clock::now();
  if (state_ == State::kStable && now - last_heartbeat_ >= timing_.heartbeat_interval) {
    heartbeat();
  }
  if (state_ == State::kStable && now - last_commit_ >= timing_.auto_commit_interval) {
    commit();
    last_commit_ = now;
  }
  if (state_ == State::kJoining && now >= join_retry_at_) join();
  if (state_ != State::kStopped) schedule_tick();
}

void SimulatedConsumer::join() {
  state_ = State::kJoining;
  join_retry_at_ = Clock::time_point::max();
  const std::uint64_t epoch = ++epoch_;
  JoinGroupParams params;
  params.group_id = settings_.group;
  params.member_id = member_id_;
  params.client_id = std::string(kPlaygroundClientId);
  params.client_host = "kgroupsd";
  params.session_timeout_ms = settings_.session_timeout_ms;
  params.rebalance_timeout_ms = settings_.session_timeout_ms;
  params.protocol_type = "consumer";
  params.protocols.push_back(
      GroupProtocol{std::string(settings_.assignor->name()),
                    encode_consumer_subscription(settings_.topic, assignment())});
  params.require_known_member_id = true;
  // Completions come back through the executor, never inside another coordinator call.
  broker_.groups().join_group(std::move(params), [weak = weak_from_this(), executor = executor_,
                                                  epoch](JoinGroupResult result) {
    // A consumer already gone (the playground shut down) has nothing to be told, and its
    // executor may be gone too.
    if (weak.expired()) return;
    asio::post(executor, [weak, epoch, result = std::move(result)] {
      if (const auto self = weak.lock()) self->on_joined(epoch, result);
    });
  });
}

void SimulatedConsumer::on_joined(std::uint64_t epoch, const JoinGroupResult& result) {
  if (epoch != epoch_ || state_ != State::kJoining) return;
  switch (result.error) {
    case GroupError::kNone:
      break;
    case GroupError::kMemberIdRequired:
      member_id_ = result.member_id;
      join();
      return;
    case GroupError::kUnknownMemberId:
      rejoin_lost(true);
      return;
    default:
      if (is_retriable_join_error(result.error)) {
        join_retry_at_ = Clock::now() + timing_.retry_backoff;
        return;
      }
      stop("JoinGroup failed with " + std::string(group_error_name(result.error)));
      return;
  }
  member_id_ = result.member_id;
  generation_ = result.generation_id;
  state_ = State::kSyncing;
  SyncGroupParams params;
  params.group_id = settings_.group;
  params.generation_id = generation_;
  params.member_id = member_id_;
  params.protocol_type = result.protocol_type;
  params.protocol_name = result.protocol_name;
  if (result.leader_id == member_id_ && !result.skip_assignment) params.assignments = lead(result);
  const std::uint64_t sync_epoch = epoch_;
  broker_.groups().sync_group(std::move(params), [weak = weak_from_this(), executor = executor_,
                                                  sync_epoch](SyncGroupResult synced) {
    if (weak.expired()) return;
    asio::post(executor, [weak, sync_epoch, synced = std::move(synced)] {
      if (const auto self = weak.lock()) self->on_synced(sync_epoch, synced);
    });
  });
}

std::vector<MemberAssignment> SimulatedConsumer::lead(const JoinGroupResult& result) const {
  const Assignor* assignor = assignor_named(result.protocol_name);
  if (assignor == nullptr) assignor = settings_.assignor;
  const StoredTopic* topic = broker_.cluster().find_topic(settings_.topic);
  const int num_partitions = topic == nullptr ? 0 : static_cast<int>(topic->partitions.size());
  std::vector<LeaderView> views;
  views.reserve(result.members.size());
  for (const JoinedMember& member : result.members) {
    LeaderView view{member.member_id, false, {}};
    if (const auto subscription = decode_consumer_subscription(member.metadata)) {
      view.subscribed = std::find(subscription->topics.begin(), subscription->topics.end(),
                                  settings_.topic) != subscription->topics.end();
      for (const AssignedTopicPartitions& owned : subscription->owned_partitions) {
        if (owned.topic != settings_.topic) continue;
        view.owned.insert(view.owned.end(), owned.partitions.begin(), owned.partitions.end());
      }
    }
    views.push_back(std::move(view));
  }
  const std::vector<std::vector<std::int32_t>> split =
      assign_as_leader(*assignor, num_partitions, views);
  std::vector<MemberAssignment> assignments;
  assignments.reserve(views.size());
  for (std::size_t i = 0; i < views.size(); ++i) {
    assignments.push_back(MemberAssignment{views[i].member_id,
                                           encode_consumer_assignment(settings_.topic, split[i])});
  }
  return assignments;
}

void SimulatedConsumer::on_synced(std::uint64_t epoch, const SyncGroupResult& result) {
  if (epoch != epoch_ || state_ != State::kSyncing) return;
  if (result.error == GroupError::kNone) {
    apply_assignment(assigned_partitions(result.assignment, settings_.topic));
  } else if (!rejoin_after(result.error)) {
    stop("SyncGroup failed with " + std::string(group_error_name(result.error)));
  }
}

bool SimulatedConsumer::rejoin_after(GroupError error) {
  switch (error) {
    case GroupError::kRebalanceInProgress:
      rejoin_for_rebalance();
      return true;
    case GroupError::kUnknownMemberId:
      rejoin_lost(true);
      return true;
    case GroupError::kIllegalGeneration:
      rejoin_lost(false);
      return true;
    default:
      return false;
  }
}

void SimulatedConsumer::apply_assignment(const std::vector<std::int32_t>& assigned) {
  std::vector<std::int32_t> revoked;
  for (const auto& [partition, position] : positions_) {
    if (!std::binary_search(assigned.begin(), assigned.end(), partition)) {
      revoked.push_back(partition);
    }
  }
  state_ = State::kStable;
  last_heartbeat_ = Clock::now();
  if (!revoked.empty()) {
    commit(revoked);
    for (const std::int32_t partition : revoked) {
      positions_.erase(partition);
      committed_.erase(partition);
    }
  }
  std::vector<std::int32_t> added;
  for (const std::int32_t partition : assigned) {
    if (!positions_.contains(partition)) added.push_back(partition);
  }
  for (const auto& [partition, position] : starting_positions(added)) {
    positions_[partition] = position;
    committed_[partition] = position;
  }
  // KIP-429: after giving partitions up, rejoin so that they reach their new owners.
  if (!revoked.empty() && protocol() == RebalanceProtocol::kCooperative) join();
}

std::map<std::int32_t, std::int64_t> SimulatedConsumer::starting_positions(
    const std::vector<std::int32_t>& partitions) {
  std::map<std::int32_t, std::int64_t> positions;
  if (partitions.empty()) return positions;
  std::vector<TopicPartition> wanted;
  wanted.reserve(partitions.size());
  for (const std::int32_t partition : partitions) {
    wanted.push_back(TopicPartition{settings_.topic, partition});
  }
  const GroupOffsetFetchResult fetched = broker_.groups().fetch_offsets(
      GroupOffsetFetch{.group_id = settings_.group, .partitions = std::move(wanted)});
  for (const std::int32_t partition : partitions) positions[partition] = -1;
  for (const PartitionOffset& offset : fetched.offsets) {
    positions[offset.topic_partition.partition] = offset.committed.offset;
  }
  const StoredTopic* topic = broker_.cluster().find_topic(settings_.topic);
  for (auto& [partition, position] : positions) {
    const bool exists =
        topic != nullptr && static_cast<std::size_t>(partition) < topic->partitions.size();
    const std::int64_t log_start =
        exists ? topic->partitions[static_cast<std::size_t>(partition)].log_start_offset() : 0;
    // auto.offset.reset=earliest: no committed offset, or one below the log start.
    if (position < log_start) position = log_start;
  }
  return positions;
}

void SimulatedConsumer::heartbeat() {
  last_heartbeat_ = Clock::now();
  const GroupError error =
      broker_.groups().heartbeat(settings_.group, generation_, member_id_, std::nullopt);
  if (error != GroupError::kNone && !rejoin_after(error)) rejoin_lost(false);
}

void SimulatedConsumer::rejoin_for_rebalance() {
  if (protocol() == RebalanceProtocol::kEager) {
    commit();
    positions_.clear();
    committed_.clear();
  }
  join();
}

void SimulatedConsumer::rejoin_lost(bool forget_member_id) {
  positions_.clear();
  committed_.clear();
  if (forget_member_id) member_id_.clear();
  generation_ = -1;
  join();
}

void SimulatedConsumer::consume() {
  if (positions_.empty()) return;
  const StoredTopic* topic = broker_.cluster().find_topic(settings_.topic);
  if (topic == nullptr) return;
  for (auto& [partition, position] : positions_) {
    if (static_cast<std::size_t>(partition) >= topic->partitions.size()) continue;
    consume_partition(*topic, partition, position);
  }
}

void SimulatedConsumer::consume_partition(const StoredTopic& topic, std::int32_t partition,
                                          std::int64_t& position) {
  const BatchLog& log = topic.partitions[static_cast<std::size_t>(partition)];
  position = std::max(position, log.log_start_offset());
  const std::int64_t end = std::min(log.last_stable_offset(), position + timing_.records_per_tick);
  if (end <= position) return;
  consumed_ += end - position;
  const auto replayed =
      delivered_.deliver(settings_.group, topic.id, partition, OffsetRange{position, end});
  if (replayed) {
    replayed_ += replayed->to - replayed->from;
    broker_.events().publish(
        "records_replayed", settings_.group,
        nlohmann::ordered_json{
            {"group_id", settings_.group},
            {"group_type", "classic"},
            {"generation", generation_},
            {"member_id", member_id_.empty() ? nlohmann::ordered_json(nullptr)
                                             : nlohmann::ordered_json(member_id_)},
            {"topic", settings_.topic},
            {"partition", partition},
            {"from", replayed->from},
            {"to", replayed->to},
            {"count", replayed->to - replayed->from}});
  }
  position = end;
}

void SimulatedConsumer::commit(const std::vector<std::int32_t>& partitions) {
  OffsetCommitParams params;
  params.group_id = settings_.group;
  params.generation_id = generation_;
  params.member_id = member_id_;
  for (const auto& [partition, position] : positions_) {
    if (!partitions.empty() &&
        std::find(partitions.begin(), partitions.end(), partition) == partitions.end()) {
      continue;
    }
    const auto last = committed_.find(partition);
    if (last != committed_.end() && last->second == position) continue;
    params.offsets.push_back(
        PartitionOffset{TopicPartition{settings_.topic, partition}, CommittedOffset{position, ""}});
  }
  if (params.offsets.empty()) return;
  const OffsetCommitResult result = broker_.groups().commit_offsets(params);
  for (const PartitionOffset& stored : stored_offsets(params, result)) {
    committed_[stored.topic_partition.partition] = stored.committed.offset;
  }
}

void SimulatedConsumer::stop(std::string error) {
  state_ = State::kStopped;
  ++epoch_;
  error_ = std::move(error);
  positions_.clear();
  committed_.clear();
  timer_.cancel();
}

}  // namespace kgroups::broker::playground
