// SPDX-License-Identifier: Apache-2.0

#include "broker/groups/coordinator_service.h"

#include <algorithm>
#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/redirect_error.hpp>
#include <asio/this_coro.hpp>
#include <asio/use_awaitable.hpp>
#include <limits>
#include <system_error>
#include <utility>

#include "broker/runtime/logger.h"

namespace kgroups::broker {

namespace {

void log_coordinator_line(std::string_view line) { log_info(line); }

}  // namespace

CoordinatorService::CoordinatorService(CoordinatorConfig config,
                                       ConsumerGroupConfig consumer_config,
                                       const TopicCatalog& catalog, CoordinatorClock clock,
                                       ShareGroupConfig share_config,
                                       ShareGroupCoordinator::LogBounds share_log_bounds)
    : stored_bytes_budget_(config.max_stored_bytes),
      clock_(clock == CoordinatorClock::kManual ? static_cast<const Clock&>(manual_clock_)
                                                : static_cast<const Clock&>(steady_clock_)),
      created_at_(clock_.now()),
      classic_(config, clock_, log_coordinator_line),
      consumer_(consumer_config, clock_, catalog, log_coordinator_line),
      share_(std::move(share_config), clock_, catalog, std::move(share_log_bounds),
             log_coordinator_line) {
  set_observer(nullptr);
  share_stored_bytes();
}

void CoordinatorService::share_stored_bytes() {
  if (stored_bytes_budget_ == 0) return;
  // At least 1: 0 would mean "no bound".
  auto left = [this](std::size_t used) {
    return used < stored_bytes_budget_ ? stored_bytes_budget_ - used : std::size_t{1};
  };
  const std::size_t classic = classic_.stored_bytes();
  const std::size_t consumer = consumer_.stored_bytes();
  const std::size_t share = share_.stored_bytes();
  classic_.set_max_stored_bytes(left(consumer + share + held_bytes_));
  consumer_.set_max_stored_bytes(left(classic + share + held_bytes_));
  share_.set_max_stored_bytes(left(classic + consumer + held_bytes_));
}

bool CoordinatorService::try_hold_bytes(std::size_t bytes) {
  const std::size_t used =
      classic_.stored_bytes() + consumer_.stored_bytes() + share_.stored_bytes() + held_bytes_;
  if (stored_bytes_budget_ != 0 &&
      (used > stored_bytes_budget_ || bytes > stored_bytes_budget_ - used)) {
    return false;
  }
  held_bytes_ += bytes;
  share_stored_bytes();
  return true;
}

std::size_t CoordinatorService::room_bytes() const {
  if (stored_bytes_budget_ == 0) return std::numeric_limits<std::size_t>::max();
  const std::size_t used =
      classic_.stored_bytes() + consumer_.stored_bytes() + share_.stored_bytes() + held_bytes_;
  return used < stored_bytes_budget_ ? stored_bytes_budget_ - used : 0;
}

void CoordinatorService::release_bytes(std::size_t bytes) {
  held_bytes_ -= std::min(bytes, held_bytes_);
  share_stored_bytes();
}

void CoordinatorService::start(const asio::any_io_executor& executor) {
  if (running_ || manual_clock()) return;
  running_ = true;
  asio::co_spawn(executor, run_expiries(), asio::detached);
}

std::int64_t CoordinatorService::now_ms() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(clock_.now() - created_at_).count();
}

std::chrono::milliseconds CoordinatorService::clock_room() const {
  return kManualClockSpan - std::chrono::milliseconds(now_ms());
}

bool CoordinatorService::advance_clock(std::chrono::milliseconds duration) {
  if (!manual_clock() || duration.count() < 0 || duration > clock_room()) return false;
  manual_clock_.advance(duration);
  classic_.poll_timers();
  consumer_.poll_timers();
  share_.poll_timers();
  records_.flush(classic_, consumer_, wall_clock_ms());
  share_stored_bytes();
  return true;
}

void CoordinatorService::join_group(JoinGroupParams params, JoinGroupCallback done) {
  share_stored_bytes();
  if (consumer_.has_group(params.group_id) || share_.has_group(params.group_id)) {
    done(join_error(GroupError::kInconsistentGroupProtocol, params.member_id));
  } else {
    classic_.join_group(std::move(params), std::move(done));
  }
  finish_call();
}

void CoordinatorService::sync_group(SyncGroupParams params, SyncGroupCallback done) {
  share_stored_bytes();
  if (consumer_.has_group(params.group_id)) {
    SyncGroupResult result;
    result.error = GroupError::kUnknownMemberId;
    done(std::move(result));
  } else {
    classic_.sync_group(std::move(params), std::move(done));
  }
  finish_call();
}

GroupError CoordinatorService::heartbeat(std::string_view group_id, std::int32_t generation_id,
                                         std::string_view member_id,
                                         std::optional<std::string_view> group_instance_id) {
  const GroupError error =
      consumer_.has_group(group_id)
          ? GroupError::kUnknownMemberId
          : classic_.heartbeat(group_id, generation_id, member_id, group_instance_id);
  finish_call();
  return error;
}

LeaveGroupResult CoordinatorService::leave_group(std::string_view group_id,
                                                 const std::vector<LeavingMember>& members) {
  LeaveGroupResult result;
  if (consumer_.has_group(group_id)) {
    result.member_errors.assign(members.size(), GroupError::kUnknownMemberId);
  } else {
    result = classic_.leave_group(group_id, members);
  }
  finish_call();
  return result;
}

GroupSummary CoordinatorService::describe_group(std::string_view group_id) {
  if (share_.has_group(group_id)) {
    // A share group is described with its type and members, without protocol bytes.
    ShareGroupDescription description = share_.describe_group(group_id);
    GroupSummary summary;
    summary.group_id = std::string(group_id);
    summary.state = std::move(description.state);
    summary.protocol_type = "share";
    for (ShareGroupMemberDescription& member : description.members) {
      MemberSummary& summarized = summary.members.emplace_back();
      summarized.member_id = std::move(member.member_id);
      summarized.client_id = std::move(member.client_id);
      summarized.client_host = std::move(member.client_host);
    }
    finish_call();
    return summary;
  }
  // A consumer group is not a classic group: Kafka describes it as Dead here.
  GroupSummary summary = classic_.describe_group(group_id);
  finish_call();
  return summary;
}

ConsumerGroupHeartbeatResult CoordinatorService::consumer_group_heartbeat(
    const ConsumerGroupHeartbeatParams& params) {
  share_stored_bytes();
  ConsumerGroupHeartbeatResult result;
  if (share_.has_group(params.group_id)) {
    result.error = GroupError::kGroupIdNotFound;
    result.error_message = "Group " + params.group_id + " is not a consumer group";
    result.member_id = params.member_id;
    finish_call();
    return result;
  }
  if (!consumer_.has_group(params.group_id) && classic_.has_group(params.group_id)) {
    std::optional<std::vector<PartitionOffset>> offsets =
        classic_.release_empty_group(params.group_id);
    if (!offsets) {
      result.error = GroupError::kGroupIdNotFound;
      result.error_message = "Group " + params.group_id + " is not a consumer group";
      result.member_id = params.member_id;
      finish_call();
      return result;
    }
    if (!offsets->empty()) {
      OffsetCommitParams handover;
      handover.group_id = params.group_id;
      handover.offsets = std::move(*offsets);
      consumer_.commit_offsets(handover);
      log_info("group " + quote(params.group_id) +
               " moves from the classic to the consumer-group protocol with its offsets");
    }
  }
  result = consumer_.heartbeat(params);
  finish_call();
  return result;
}

ConsumerGroupDescription CoordinatorService::describe_consumer_group(std::string_view group_id) {
  ConsumerGroupDescription description = consumer_.describe_group(group_id);
  if (description.error == GroupError::kGroupIdNotFound && classic_.has_group(group_id)) {
    description.error_message = "Group " + std::string(group_id) + " is not a consumer group.";
  }
  finish_call();
  return description;
}

ShareGroupHeartbeatResult CoordinatorService::share_group_heartbeat(
    const ShareGroupHeartbeatParams& params) {
  share_stored_bytes();
  ShareGroupHeartbeatResult result;
  if (classic_.has_group(params.group_id) || consumer_.has_group(params.group_id)) {
    result.error = GroupError::kGroupIdNotFound;
    result.error_message = "Group " + params.group_id + " is not a share group";
  } else {
    result = share_.heartbeat(params);
  }
  finish_call();
  return result;
}

ShareGroupDescription CoordinatorService::describe_share_group(std::string_view group_id) {
  ShareGroupDescription description = share_.describe_group(group_id);
  finish_call();
  return description;
}

OffsetCommitResult CoordinatorService::commit_offsets(const OffsetCommitParams& params) {
  share_stored_bytes();
  OffsetCommitParams stamped = params;
  const std::int64_t now_ms = wall_clock_ms();
  for (PartitionOffset& offset : stamped.offsets) {
    if (offset.committed.commit_timestamp_ms < 0) offset.committed.commit_timestamp_ms = now_ms;
  }
  OffsetCommitResult result = consumer_.has_group(params.group_id)
                                  ? consumer_.commit_offsets(stamped)
                                  : classic_.commit_offsets(stamped);
  finish_call();
  return result;
}

GroupOffsetFetchResult CoordinatorService::fetch_offsets(const GroupOffsetFetch& fetch) {
  GroupOffsetFetchResult result;
  if (consumer_.has_group(fetch.group_id)) {
    ConsumerOffsetFetchParams params;
    params.group_id = std::string(fetch.group_id);
    if (fetch.member_id) params.member_id = std::string(*fetch.member_id);
    params.member_epoch = fetch.member_epoch;
    params.partitions = fetch.partitions;
    ConsumerOffsetFetchResult fetched = consumer_.fetch_offsets(params);
    result.error = fetched.error;
    result.offsets = std::move(fetched.offsets);
  } else {
    result.offsets = classic_.fetch_offsets(fetch.group_id, fetch.partitions);
  }
  finish_call();
  return result;
}

std::vector<CoordinatorService::Listing> CoordinatorService::list_groups() {
  std::vector<Listing> listings;
  for (GroupListing& group : classic_.list_groups()) {
    listings.push_back({std::move(group), "classic"});
  }
  for (GroupListing& group : consumer_.list_groups()) {
    listings.push_back({std::move(group), "consumer"});
  }
  for (GroupListing& group : share_.list_groups()) {
    listings.push_back({std::move(group), "share"});
  }
  std::sort(listings.begin(), listings.end(),
            [](const Listing& a, const Listing& b) { return a.group.group_id < b.group.group_id; });
  finish_call();
  return listings;
}

std::optional<Clock::TimePoint> CoordinatorService::next_deadline() const {
  std::optional<Clock::TimePoint> earliest;
  for (const std::optional<Clock::TimePoint> deadline :
       {classic_.next_deadline(), consumer_.next_deadline(), share_.next_deadline()}) {
    if (deadline && (!earliest || *deadline < *earliest)) earliest = deadline;
  }
  return earliest;
}

void CoordinatorService::rearm() {
  const std::optional<Clock::TimePoint> deadline = next_deadline();
  if (timer_ != nullptr && deadline && *deadline < armed_for_) timer_->cancel();
}

asio::awaitable<void> CoordinatorService::run_expiries() {
  asio::steady_timer timer(co_await asio::this_coro::executor);
  timer_ = &timer;
  // The io_context may destroy this coroutine (at shutdown) while it waits.
  struct Forget {
    CoordinatorService* service;
    ~Forget() {
      service->timer_ = nullptr;
      service->running_ = false;
      service->armed_for_ = Clock::TimePoint::max();
    }
  } forget{this};
  for (;;) {
    armed_for_ = next_deadline().value_or(Clock::TimePoint::max());
    timer.expires_at(armed_for_);
    std::error_code error;  // cancelled: a deadline moved earlier; recompute
    co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, error));
    classic_.poll_timers();
    consumer_.poll_timers();
    share_.poll_timers();
    records_.flush(classic_, consumer_, wall_clock_ms());
  }
}

}  // namespace kgroups::broker
