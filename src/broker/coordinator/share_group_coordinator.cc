// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/share_group_coordinator.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <tuple>

#include "share/share_assignor.h"

namespace kgroups::broker {
namespace {

constexpr std::int32_t kJoinEpoch = 0;
constexpr std::int32_t kLeaveEpoch = -1;
// Bytes a member costs beside its strings: its entry and its assignment's vectors.
constexpr std::size_t kMemberOverheadBytes = 256;
constexpr std::size_t kSharePartitionOverheadBytes = 128;

ObservedMember observed(const ShareGroupMember& member) {
  return {.member_id = member.member_id,
          .client_id = member.client_id,
          .client_host = member.client_host,
          .instance_id = std::nullopt};
}

ShareGroupHeartbeatResult refusal(GroupError error, std::string message) {
  ShareGroupHeartbeatResult result;
  result.error = error;
  result.error_message = std::move(message);
  return result;
}

}  // namespace

ShareGroupCoordinator::ShareGroupCoordinator(ShareGroupConfig config, const Clock& clock,
                                             const TopicCatalog& catalog, LogBounds log_bounds,
                                             Logger logger)
    : config_(std::move(config)),
      clock_(clock),
      catalog_(catalog),
      log_bounds_(std::move(log_bounds)),
      logger_(std::move(logger)),
      epoch_(clock.now()) {}

std::int64_t ShareGroupCoordinator::now_ms() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(clock_.now() - epoch_).count();
}

void ShareGroupCoordinator::log(const std::string& line) const {
  if (logger_) logger_(line);
}

CoordinatedShareGroup* ShareGroupCoordinator::find(std::string_view group_id) {
  const auto found = groups_.find(group_id);
  return found == groups_.end() ? nullptr : found->second.get();
}

bool ShareGroupCoordinator::has_group(std::string_view group_id) const {
  return groups_.find(group_id) != groups_.end();
}

std::vector<std::string> ShareGroupCoordinator::group_ids() const {
  std::vector<std::string> ids;
  ids.reserve(groups_.size());
  for (const auto& [id, group] : groups_) ids.push_back(id);
  return ids;
}

std::size_t ShareGroupCoordinator::member_bytes(const ShareGroupMember& member) {
  std::size_t bytes = kMemberOverheadBytes + member.member_id.size() + member.client_id.size() +
                      member.client_host.size() + (member.rack_id ? member.rack_id->size() : 0);
  for (const std::string& name : member.subscribed_topic_names) bytes += name.size() + 32;
  for (const TopicPartitions& topic : member.assignment) {
    bytes += sizeof(TopicPartitions) + topic.partitions.size() * sizeof(std::int32_t);
  }
  return bytes;
}

std::size_t ShareGroupCoordinator::group_bytes(const CoordinatedShareGroup& group) {
  std::size_t bytes = group.group_id().size() + kMemberOverheadBytes;
  for (const auto& [member_id, member] : group.members()) bytes += member_bytes(member);
  for (const auto& [key, partition] : group.partitions()) {
    bytes += kSharePartitionOverheadBytes + partition.state_bytes();
  }
  return bytes;
}

std::size_t ShareGroupCoordinator::recount_stored_bytes() const {
  std::size_t bytes = 0;
  for (const auto& [id, group] : groups_) bytes += group_bytes(*group);
  return bytes;
}

void ShareGroupCoordinator::recount(CoordinatedShareGroup& group) {
  recharge(group, group.counted_bytes(), group_bytes(group));
}

void ShareGroupCoordinator::recharge(CoordinatedShareGroup& group, std::size_t before,
                                     std::size_t after) {
  stored_bytes_ = stored_bytes_ - before + after;
  group.set_counted_bytes(group.counted_bytes() - before + after);
}

// ---- expiries ----

void ShareGroupCoordinator::refile(const CoordinatedShareGroup& group) {
  const auto found = groups_.find(group.group_id());
  if (found == groups_.end()) return;
  deadlines_.update(found->first, group.next_deadline(epoch_));
}

void ShareGroupCoordinator::expire(CoordinatedShareGroup& group) {
  const Clock::TimePoint now = clock_.now();
  std::vector<std::string> expired;
  for (const auto& [id, member] : group.members()) {
    if (member.session_deadline <= now) expired.push_back(id);
  }
  for (const std::string& id : expired) remove_member(group, id, true);
  const std::int64_t now_in_ms = now_ms();
  const share::ShareLimits& limits = settings(group).limits;
  release_and_report(group, "", "lock_expired", [&](share::SharePartition& partition) {
    partition.expire_locks(now_in_ms, limits);
  });
}

template <typename Release>
void ShareGroupCoordinator::release_and_report(CoordinatedShareGroup& group,
                                               std::string_view member_id, std::string_view reason,
                                               Release release) {
  std::vector<std::pair<SharePartitionKey, ObservedReleasedPartition>> released;
  for (auto& [key, partition] : group.partitions()) {
    const share::ShareTotals before = partition.totals();
    release(partition);
    const share::ShareTotals& after = partition.totals();
    const std::int64_t archived = after.archived_by_limit - before.archived_by_limit;
    const std::int64_t total = after.released - before.released;
    if (total > 0) {
      released.push_back({key,
                          {.topic = {},
                           .partition = key.partition,
                           .released = total - archived,
                           .archived = archived}});
    }
  }
  if (observer_ == nullptr || released.empty()) return;
  std::vector<std::string> names;  // owns the topic names the observation views
  names.reserve(released.size());
  for (auto& [key, partition] : released) {
    const auto topic = catalog_.find_by_id(key.topic_id);
    names.push_back(topic ? topic->name : std::string());
  }
  ObservedRelease observation{
      .group_id = group.group_id(), .member_id = member_id, .reason = reason, .partitions = {}};
  for (std::size_t i = 0; i < released.size(); ++i) {
    released[i].second.topic = names[i];
    observation.partitions.push_back(released[i].second);
  }
  std::sort(observation.partitions.begin(), observation.partitions.end(),
            [](const ObservedReleasedPartition& a, const ObservedReleasedPartition& b) {
              return std::tie(a.topic, a.partition) < std::tie(b.topic, b.partition);
            });
  observer_->on_records_released(observation);
}

void ShareGroupCoordinator::apply_due() {
  for (const std::string_view id : deadlines_.due_at(clock_.now())) {
    CoordinatedShareGroup* group = find(id);
    if (group == nullptr) continue;
    expire(*group);
    recount(*group);
    refile(*group);
  }
}

void ShareGroupCoordinator::poll_timers() { apply_due(); }

// ---- membership ----

std::optional<ShareGroupHeartbeatResult> ShareGroupCoordinator::refuse(
    const ShareGroupHeartbeatParams& params) const {
  if (params.group_id.empty()) {
    return refusal(GroupError::kInvalidGroupId, "the group id is empty");
  }
  if (params.group_id.size() > config_.max_id_length) {
    return refusal(GroupError::kInvalidGroupId, "the group id is longer than the broker allows");
  }
  if (params.member_id.empty()) {
    return refusal(GroupError::kInvalidRequest,
                   "MemberId can't be empty: a share consumer sends its own UUID");
  }
  if (params.member_id.size() > config_.max_id_length ||
      params.client_id.size() > config_.max_id_length ||
      (params.rack_id && params.rack_id->size() > config_.max_id_length)) {
    return refusal(GroupError::kInvalidRequest, "a field is longer than the broker allows");
  }
  if (params.rack_id && params.rack_id->empty()) {
    return refusal(GroupError::kInvalidRequest, "RackId can't be empty");
  }
  if (params.member_epoch < kLeaveEpoch) {
    return refusal(GroupError::kInvalidRequest, "MemberEpoch is invalid");
  }
  if (params.member_epoch == kJoinEpoch &&
      (!params.subscribed_topic_names || params.subscribed_topic_names->empty())) {
    return refusal(GroupError::kInvalidRequest,
                   "SubscribedTopicNames must be set in first request");
  }
  if (params.subscribed_topic_names &&
      params.subscribed_topic_names->size() > config_.max_subscribed_topics) {
    return refusal(GroupError::kInvalidRequest, "too many subscribed topics");
  }
  return std::nullopt;
}

ShareGroupHeartbeatResult ShareGroupCoordinator::heartbeat(
    const ShareGroupHeartbeatParams& params) {
  apply_due();
  if (auto refused = refuse(params)) return std::move(*refused);
  ShareGroupHeartbeatResult result =
      params.member_epoch == kLeaveEpoch ? leave(params) : join_or_heartbeat(params);
  if (CoordinatedShareGroup* group = find(params.group_id)) {
    recount(*group);
    refile(*group);
  }
  return result;
}

ShareGroupHeartbeatResult ShareGroupCoordinator::leave(const ShareGroupHeartbeatParams& params) {
  CoordinatedShareGroup* group = find(params.group_id);
  if (group == nullptr || group->member(params.member_id) == nullptr) {
    return refusal(GroupError::kUnknownMemberId,
                   "member " + params.member_id + " is not in share group " + params.group_id);
  }
  remove_member(*group, params.member_id, false);
  ShareGroupHeartbeatResult result;
  result.member_id = params.member_id;
  result.member_epoch = kLeaveEpoch;
  return result;
}

ShareGroupHeartbeatResult ShareGroupCoordinator::join_or_heartbeat(
    const ShareGroupHeartbeatParams& params) {
  CoordinatedShareGroup* group = find(params.group_id);
  ShareGroupMember* member = group != nullptr ? group->member(params.member_id) : nullptr;
  const bool joining = member == nullptr;
  if (joining && params.member_epoch != kJoinEpoch) {
    return refusal(GroupError::kUnknownMemberId, "member " + params.member_id +
                                                     " is not in share group " + params.group_id +
                                                     ": join again with epoch 0");
  }
  if (!joining && params.member_epoch != kJoinEpoch &&
      params.member_epoch != member->member_epoch) {
    return refusal(GroupError::kFencedMemberEpoch,
                   "member epoch " + std::to_string(params.member_epoch) + " is not the member's " +
                       std::to_string(member->member_epoch) + ": join again with epoch 0");
  }
  if (group == nullptr && groups_.size() >= config_.max_groups) {
    return refusal(GroupError::kPolicyViolation,
                   "the broker holds --max-groups groups already; delete one or raise the limit");
  }
  if (joining && group != nullptr && group->members().size() >= config_.max_members) {
    return refusal(GroupError::kGroupMaxSizeReached,
                   "share group " + params.group_id + " has group.share.max.size members");
  }
  std::vector<std::string> names;
  if (params.subscribed_topic_names) {
    names = *params.subscribed_topic_names;
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
  }
  if (joining && config_.max_stored_bytes != 0) {
    ShareGroupMember probe;
    probe.member_id = params.member_id;
    probe.client_id = params.client_id;
    probe.client_host = params.client_host;
    probe.subscribed_topic_names = names;
    if (stored_bytes() + member_bytes(probe) > config_.max_stored_bytes) {
      return refusal(GroupError::kCoordinatorLoadInProgress,
                     "the groups' share of --max-memory is full");
    }
  }
  if (group == nullptr) {
    auto [position, inserted] =
        groups_.emplace(params.group_id, std::make_unique<CoordinatedShareGroup>(params.group_id));
    group = position->second.get();
  }
  bool changed = false;
  if (joining) {
    member = &group->add_member(params.member_id);
    member->client_id = params.client_id;
    member->client_host = params.client_host;
    changed = true;
    log("share group " + params.group_id + ": member " + params.member_id + " joined");
    if (observer_ != nullptr) {
      observer_->on_member_joined(GroupType::kShare, group->group_id(), observed(*member));
    }
  } else if (params.member_epoch == kJoinEpoch) {
    member->assignment_pending = true;  // a rejoin gets its assignment again
  }
  if (params.rack_id) member->rack_id = params.rack_id;
  if (params.subscribed_topic_names && names != member->subscribed_topic_names) {
    member->subscribed_topic_names = std::move(names);
    changed = true;
  }
  member->session_deadline =
      clock_.now() + std::chrono::milliseconds(settings(*group).session_timeout_ms);
  if (changed) {
    group->bump_epoch();
    reassign(*group);
  }
  ShareGroupHeartbeatResult result;
  result.member_id = member->member_id;
  result.heartbeat_interval_ms = settings(*group).heartbeat_interval_ms;
  if (member->assignment_pending || member->member_epoch != group->group_epoch()) {
    member->member_epoch = group->group_epoch();
    member->assignment_pending = false;
    result.assignment = member->assignment;
  }
  result.member_epoch = member->member_epoch;
  return result;
}

void ShareGroupCoordinator::remove_member(CoordinatedShareGroup& group,
                                          const std::string& member_id, bool expired) {
  const ShareGroupMember* member = group.member(member_id);
  if (member == nullptr) return;
  const std::string_view why = expired ? "its session timed out" : "it left the group";
  if (observer_ != nullptr) {
    if (expired) {
      observer_->on_member_expired(GroupType::kShare, group.group_id(), observed(*member),
                                   "session timeout");
    } else {
      observer_->on_member_left(GroupType::kShare, group.group_id(), observed(*member),
                                "left the group (member epoch -1)");
    }
  }
  const share::MemberIndex index = member->index;
  const share::ShareLimits& limits = settings(group).limits;
  release_and_report(
      group, member_id, expired ? "member_expired" : "member_left",
      [&](share::SharePartition& partition) { partition.release_member(index, limits); });
  group.remove_member(member_id);
  log("share group " + group.group_id() + ": member " + member_id + " removed because " +
      std::string(why));
  group.bump_epoch();
  reassign(group);
}

void ShareGroupCoordinator::reassign(CoordinatedShareGroup& group) {
  // Every subscribed partition, topic by topic (names ascending), partitions ascending.
  std::vector<std::string> topics;
  for (const auto& [id, member] : group.members()) {
    topics.insert(topics.end(), member.subscribed_topic_names.begin(),
                  member.subscribed_topic_names.end());
  }
  std::sort(topics.begin(), topics.end());
  topics.erase(std::unique(topics.begin(), topics.end()), topics.end());
  std::vector<TopicDescription> described;
  std::vector<int> topic_of;
  std::vector<SharePartitionKey> keys;
  for (const std::string& name : topics) {
    const auto topic = catalog_.find_by_name(name);
    if (!topic) continue;
    for (std::int32_t p = 0; p < topic->partition_count; ++p) {
      topic_of.push_back(static_cast<int>(described.size()));
      keys.push_back({topic->id, p});
    }
    described.push_back(*topic);
  }
  auto index_of = [&keys](const TopicId& id, std::int32_t p) {
    const auto found = std::find(keys.begin(), keys.end(), SharePartitionKey{id, p});
    return found == keys.end() ? -1 : static_cast<int>(found - keys.begin());
  };
  std::vector<std::string_view> member_ids;
  std::vector<std::vector<int>> subscribed;
  std::vector<std::vector<int>> current;
  for (const auto& [id, member] : group.members()) {
    member_ids.push_back(id);
    std::vector<int>& mine = subscribed.emplace_back();
    for (std::size_t t = 0; t < described.size(); ++t) {
      if (!std::binary_search(member.subscribed_topic_names.begin(),
                              member.subscribed_topic_names.end(), described[t].name)) {
        continue;
      }
      for (std::size_t k = 0; k < keys.size(); ++k) {
        if (topic_of[k] == static_cast<int>(t)) mine.push_back(static_cast<int>(k));
      }
    }
    std::vector<int>& held = current.emplace_back();
    for (const TopicPartitions& topic : member.assignment) {
      for (const std::int32_t p : topic.partitions) {
        const int k = index_of(topic.topic_id, p);
        if (k >= 0) held.push_back(k);
      }
    }
  }
  const std::vector<std::vector<int>> assigned =
      share::assign_share_partitions({member_ids, subscribed, current, topic_of});
  std::size_t m = 0;
  for (const auto& [id, const_member] : group.members()) {
    ShareGroupMember& member = *group.member(id);
    std::vector<TopicPartitions> assignment;
    for (const int k : assigned[m]) {
      const SharePartitionKey& key = keys[static_cast<std::size_t>(k)];
      if (assignment.empty() || assignment.back().topic_id != key.topic_id) {
        assignment.push_back({key.topic_id, {}});
      }
      assignment.back().partitions.push_back(key.partition);
    }
    if (assignment != member.assignment) {
      member.assignment = std::move(assignment);
      member.assignment_pending = true;
    }
    ++m;
  }
  create_share_partitions(group);
}

void ShareGroupCoordinator::create_share_partitions(CoordinatedShareGroup& group) {
  const bool earliest = settings(group).start_at_earliest;
  for (const auto& [id, member] : group.members()) {
    for (const TopicPartitions& topic : member.assignment) {
      for (const std::int32_t p : topic.partitions) {
        const SharePartitionKey key{topic.topic_id, p};
        if (group.partition(key) != nullptr) continue;
        const auto bounds = log_bounds_(topic.topic_id, p);
        const std::int64_t start = !bounds ? 0 : earliest ? bounds->first : bounds->second;
        group.partitions().emplace(key, share::SharePartition(start));
      }
    }
  }
}

// ---- acquisition and acknowledgement ----

GroupError ShareGroupCoordinator::check_member(std::string_view group_id,
                                               std::string_view member_id) {
  apply_due();
  const CoordinatedShareGroup* group = find(group_id);
  if (group == nullptr || group->member(member_id) == nullptr) return GroupError::kUnknownMemberId;
  return GroupError::kNone;
}

share::SharePartition* ShareGroupCoordinator::share_partition(CoordinatedShareGroup& group,
                                                              const TopicId& topic_id,
                                                              std::int32_t partition) {
  const SharePartitionKey key{topic_id, partition};
  if (share::SharePartition* found = group.partition(key)) return found;
  const auto bounds = log_bounds_(topic_id, partition);
  if (!bounds) return nullptr;
  if (config_.max_stored_bytes != 0 &&
      stored_bytes() + kSharePartitionOverheadBytes > config_.max_stored_bytes) {
    return nullptr;
  }
  const std::int64_t start = settings(group).start_at_earliest ? bounds->first : bounds->second;
  share::SharePartition& created =
      group.partitions().emplace(key, share::SharePartition(start)).first->second;
  recharge(group, 0, kSharePartitionOverheadBytes + created.state_bytes());
  return &created;
}

std::optional<std::int64_t> ShareGroupCoordinator::start_acquiring(std::string_view group_id,
                                                                   const TopicId& topic_id,
                                                                   std::int32_t partition,
                                                                   std::int64_t log_start_offset) {
  CoordinatedShareGroup* group = find(group_id);
  if (group == nullptr) return std::nullopt;
  share::SharePartition* state = share_partition(*group, topic_id, partition);
  if (state == nullptr) return std::nullopt;
  const std::size_t before = state->state_bytes();
  state->advance_log_start(log_start_offset);
  recharge(*group, before, state->state_bytes());
  return state->next_acquirable_offset();
}

int ShareGroupCoordinator::acquire(std::string_view group_id, std::string_view member_id,
                                   const TopicId& topic_id, std::int32_t partition,
                                   std::int64_t log_end, int max_records,
                                   std::vector<share::AcquiredRange>& out) {
  CoordinatedShareGroup* group = find(group_id);
  if (group == nullptr) return 0;
  const ShareGroupMember* member = group->member(member_id);
  share::SharePartition* state = share_partition(*group, topic_id, partition);
  if (member == nullptr || state == nullptr) return 0;
  const share::ShareLimits& limits = settings(*group).limits;
  int allowed = max_records;
  if (config_.max_stored_bytes != 0) {
    // New in-flight records cost state; take no more than the budget has room for.
    const std::size_t used = stored_bytes();
    const std::size_t room = used >= config_.max_stored_bytes ? 0 : config_.max_stored_bytes - used;
    const auto records =
        static_cast<std::int64_t>(room / sizeof(share::SharePartition::InFlightRecord));
    const std::int64_t available = state->available_count();
    allowed = static_cast<int>(std::min<std::int64_t>(max_records, records + available));
  }
  const std::size_t before = state->state_bytes();
  const int taken = state->acquire(member->index, log_end, allowed, now_ms(), limits, out);
  recharge(*group, before, state->state_bytes());
  if (taken > 0) refile(*group);
  return taken;
}

share::AcknowledgeRefusal ShareGroupCoordinator::acknowledge(
    std::string_view group_id, std::string_view member_id, const TopicId& topic_id,
    std::int32_t partition, std::span<const share::Acknowledgement> acks) {
  CoordinatedShareGroup* group = find(group_id);
  const ShareGroupMember* member = group != nullptr ? group->member(member_id) : nullptr;
  share::SharePartition* state =
      group != nullptr ? group->partition({topic_id, partition}) : nullptr;
  if (member == nullptr || state == nullptr) return share::AcknowledgeRefusal::kNotAcquiredByMember;
  const std::size_t before = state->state_bytes();
  const auto refusal = state->acknowledge(member->index, acks, settings(*group).limits);
  recharge(*group, before, state->state_bytes());
  refile(*group);
  return refusal;
}

void ShareGroupCoordinator::release_member_records(std::string_view group_id,
                                                   std::string_view member_id) {
  CoordinatedShareGroup* group = find(group_id);
  const ShareGroupMember* member = group != nullptr ? group->member(member_id) : nullptr;
  if (member == nullptr) return;
  const share::ShareLimits& limits = settings(*group).limits;
  const share::MemberIndex index = member->index;
  release_and_report(*group, member_id, "session_closed", [&](share::SharePartition& partition) {
    partition.release_member(index, limits);
  });
  recount(*group);
  refile(*group);
}

std::int64_t ShareGroupCoordinator::record_lock_duration_ms(std::string_view group_id) const {
  const auto found = groups_.find(group_id);
  if (found == groups_.end()) return config_.settings.limits.record_lock_duration_ms;
  return settings(*found->second).limits.record_lock_duration_ms;
}

void ShareGroupCoordinator::set_group_settings(std::string_view group_id,
                                               ShareGroupSettings group_settings) {
  CoordinatedShareGroup* group = find(group_id);
  if (group == nullptr) {
    group = groups_
                .emplace(std::string(group_id),
                         std::make_unique<CoordinatedShareGroup>(std::string(group_id)))
                .first->second.get();
  }
  group->own_settings() = group_settings;
  recount(*group);
}

ShareGroupSettings ShareGroupCoordinator::settings_of(std::string_view group_id) const {
  const auto found = groups_.find(group_id);
  return found == groups_.end() ? config_.settings : settings(*found->second);
}

// ---- admin ----

GroupError ShareGroupCoordinator::alter_start_offset(std::string_view group_id,
                                                     const TopicId& topic_id,
                                                     std::int32_t partition, std::int64_t offset) {
  apply_due();
  CoordinatedShareGroup* group = find(group_id);
  if (group == nullptr) {
    if (groups_.size() >= config_.max_groups) return GroupError::kPolicyViolation;
    group = groups_
                .emplace(std::string(group_id),
                         std::make_unique<CoordinatedShareGroup>(std::string(group_id)))
                .first->second.get();
  }
  if (!group->members().empty()) return GroupError::kNonEmptyGroup;
  const SharePartitionKey key{topic_id, partition};
  if (share::SharePartition* state = group->partition(key)) {
    state->reset(offset);
  } else {
    group->partitions().emplace(key, share::SharePartition(offset));
  }
  recount(*group);
  return GroupError::kNone;
}

GroupError ShareGroupCoordinator::delete_topic_state(std::string_view group_id,
                                                     const TopicId& topic_id) {
  apply_due();
  CoordinatedShareGroup* group = find(group_id);
  if (group == nullptr) return GroupError::kGroupIdNotFound;
  if (!group->members().empty()) return GroupError::kNonEmptyGroup;
  std::erase_if(group->partitions(),
                [&](const auto& entry) { return entry.first.topic_id == topic_id; });
  recount(*group);
  return GroupError::kNone;
}

GroupError ShareGroupCoordinator::delete_group(std::string_view group_id) {
  apply_due();
  const auto found = groups_.find(group_id);
  if (found == groups_.end()) return GroupError::kGroupIdNotFound;
  if (!found->second->members().empty()) return GroupError::kNonEmptyGroup;
  deadlines_.remove(found->first);
  stored_bytes_ -= found->second->counted_bytes();
  groups_.erase(found);
  return GroupError::kNone;
}

void ShareGroupCoordinator::forget_topic(const TopicId& topic_id) {
  for (auto& [id, group] : groups_) {
    std::erase_if(group->partitions(),
                  [&](const auto& entry) { return entry.first.topic_id == topic_id; });
    recount(*group);
    refile(*group);
  }
}

// ---- describe and list ----

ShareGroupDescription ShareGroupCoordinator::describe_group(std::string_view group_id) {
  apply_due();
  ShareGroupDescription description;
  description.group_id = std::string(group_id);
  const CoordinatedShareGroup* group = find(group_id);
  if (group == nullptr) {
    description.error = GroupError::kGroupIdNotFound;
    description.state = "Dead";
    return description;
  }
  description.state = group->members().empty() ? "Empty" : "Stable";
  description.group_epoch = group->group_epoch();
  description.assignment_epoch = group->group_epoch();
  for (const auto& [id, member] : group->members()) {
    ShareGroupMemberDescription& out = description.members.emplace_back();
    out.member_id = id;
    out.rack_id = member.rack_id;
    out.member_epoch = member.member_epoch;
    out.client_id = member.client_id;
    out.client_host = member.client_host;
    out.subscribed_topic_names = member.subscribed_topic_names;
    out.assignment = member.assignment;
    for (const auto& [key, partition] : group->partitions()) {
      out.records_held += partition.held_count(member.index);
    }
  }
  for (const auto& [key, partition] : group->partitions()) {
    SharePartitionDescription& out = description.partitions.emplace_back();
    out.topic_id = key.topic_id;
    if (const auto topic = catalog_.find_by_id(key.topic_id)) out.topic_name = topic->name;
    out.partition = key.partition;
    out.start_offset = partition.start_offset();
    out.end_offset = partition.end_offset();
    out.in_flight = partition.in_flight();
    out.totals = partition.totals();
  }
  std::sort(description.partitions.begin(), description.partitions.end(),
            [](const SharePartitionDescription& a, const SharePartitionDescription& b) {
              return std::tie(a.topic_name, a.partition) < std::tie(b.topic_name, b.partition);
            });
  return description;
}

std::vector<GroupListing> ShareGroupCoordinator::list_groups() {
  apply_due();
  std::vector<GroupListing> listings;
  listings.reserve(groups_.size());
  for (const auto& [id, group] : groups_) {
    listings.push_back({.group_id = id,
                        .protocol_type = "share",
                        .state = group->members().empty() ? "Empty" : "Stable"});
  }
  return listings;
}

}  // namespace kgroups::broker
