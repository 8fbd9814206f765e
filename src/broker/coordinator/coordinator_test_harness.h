// SPDX-License-Identifier: Apache-2.0
//
// CoordinatorHarness: a GroupCoordinator on a ManualClock with helpers that play
// the client side of JoinGroup/SyncGroup, for the coordinator's unit tests.
// Not thread-safe.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "broker/coordinator/clock.h"
#include "broker/coordinator/group_coordinator.h"

namespace kgroups::broker {

// Collects the results a parked call's callback receives (the coordinator must
// invoke it exactly once).
template <typename Result>
class Capture {
 public:
  std::function<void(Result)> callback() {
    return [results = results_](Result result) { results->push_back(std::move(result)); };
  }
  [[nodiscard]] std::size_t calls() const { return results_->size(); }
  [[nodiscard]] bool done() const { return !results_->empty(); }
  // Returns the only result; fails the test unless there is exactly one.
  [[nodiscard]] const Result& result() const {
    EXPECT_EQ(results_->size(), 1u) << "the callback must run exactly once";
    static const Result kNone{};
    return results_->empty() ? kNone : results_->back();
  }

 private:
  std::shared_ptr<std::vector<Result>> results_ = std::make_shared<std::vector<Result>>();
};

using JoinCapture = Capture<JoinGroupResult>;
using SyncCapture = Capture<SyncGroupResult>;

inline std::vector<std::uint8_t> bytes(std::string_view text) { return {text.begin(), text.end()}; }

inline std::vector<GroupProtocol> protocols(std::initializer_list<std::string_view> names) {
  std::vector<GroupProtocol> list;
  for (std::string_view name : names) list.push_back(GroupProtocol{std::string(name), bytes(name)});
  return list;
}

// The SyncGroup assignment bytes a Kafka consumer's leader sends (ConsumerProtocolAssignment
// v0: version, topics with their partitions, empty user data), for `topics` in order.
inline std::vector<std::uint8_t> consumer_assignment_bytes(
    const std::vector<std::pair<std::string, std::vector<std::int32_t>>>& topics) {
  std::vector<std::uint8_t> out;
  auto put = [&out](std::uint64_t value, int bytes) {
    for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8) {
      out.push_back(static_cast<std::uint8_t>(value >> shift));
    }
  };
  put(0, 2);
  put(topics.size(), 4);
  for (const auto& [topic, partitions] : topics) {
    put(topic.size(), 2);
    out.insert(out.end(), topic.begin(), topic.end());
    put(partitions.size(), 4);
    for (std::int32_t partition : partitions) put(static_cast<std::uint32_t>(partition), 4);
  }
  put(0xFFFFFFFFU, 4);  // null user data
  return out;
}

// The LeaveGroup entries of dynamic members leaving by member id.
inline std::vector<LeavingMember> leaving(const std::vector<std::string>& member_ids) {
  std::vector<LeavingMember> members;
  members.reserve(member_ids.size());
  for (const std::string& member_id : member_ids) members.push_back({member_id, std::nullopt});
  return members;
}

struct StableGroup {
  std::vector<std::string> member_ids;  // in join order; the first is the leader
  std::int32_t generation_id = -1;
};

class CoordinatorHarness {
 public:
  explicit CoordinatorHarness(CoordinatorConfig config = {})
      : coordinator_(std::make_unique<GroupCoordinator>(
            config, clock_, [this](std::string_view line) { log_.emplace_back(line); })) {}

  CoordinatorHarness(const CoordinatorHarness&) = delete;
  CoordinatorHarness& operator=(const CoordinatorHarness&) = delete;

  GroupCoordinator& coordinator() { return *coordinator_; }
  ManualClock& clock() { return clock_; }
  [[nodiscard]] const std::vector<std::string>& log() const { return log_; }
  [[nodiscard]] bool logged(std::string_view fragment) const {
    for (const std::string& line : log_) {
      if (line.find(fragment) != std::string::npos) return true;
    }
    return false;
  }

  // Moves the clock and fires what became due.
  void advance(std::chrono::milliseconds duration) {
    clock_.advance(duration);
    coordinator_->poll_timers();
  }

  static JoinGroupParams join_params(
      std::string group_id, std::string member_id = "",
      std::vector<GroupProtocol> member_protocols = protocols({"range"}),
      std::int32_t session_timeout_ms = 10000, std::int32_t rebalance_timeout_ms = 30000) {
    JoinGroupParams params;
    params.group_id = std::move(group_id);
    params.member_id = std::move(member_id);
    params.client_id = "client";
    params.client_host = "/127.0.0.1";
    params.session_timeout_ms = session_timeout_ms;
    params.rebalance_timeout_ms = rebalance_timeout_ms;
    params.protocol_type = "consumer";
    params.protocols = std::move(member_protocols);
    return params;
  }

  JoinCapture join(JoinGroupParams params) {
    JoinCapture capture;
    coordinator_->join_group(std::move(params), capture.callback());
    return capture;
  }

  SyncCapture sync(std::string group_id, std::int32_t generation_id, std::string member_id,
                   std::vector<MemberAssignment> assignments = {}) {
    SyncGroupParams params;
    params.group_id = std::move(group_id);
    params.generation_id = generation_id;
    params.member_id = std::move(member_id);
    params.assignments = std::move(assignments);
    SyncCapture capture;
    coordinator_->sync_group(std::move(params), capture.callback());
    return capture;
  }

  std::string state(std::string_view group_id) {
    return coordinator_->describe_group(group_id).state;
  }

  // Renders what a refused call must leave as it was: every group with its state,
  // protocol, members (client id, host, metadata size, assignment) and committed
  // offsets, plus the stored bytes (which also see pending ids) and the next deadline.
  std::string snapshot() {
    std::string text = "stored_bytes=" + std::to_string(coordinator_->stored_bytes());
    std::optional<Clock::TimePoint> deadline = coordinator_->next_deadline();
    text += " next_deadline=" +
            (deadline ? std::to_string(deadline->time_since_epoch().count()) : "none") + "\n";
    for (const GroupListing& listing : coordinator_->list_groups()) {
      GroupSummary summary = coordinator_->describe_group(listing.group_id);
      text += listing.group_id + " " + summary.state + " " + summary.protocol_type + "/" +
              summary.protocol_name + "\n";
      for (const MemberSummary& member : summary.members) {
        text += "  member " + member.member_id + " " + member.client_id + " " + member.client_host +
                " metadata=" + std::to_string(member.metadata.size()) +
                " assignment=" + std::string(member.assignment.begin(), member.assignment.end()) +
                "\n";
      }
      for (const PartitionOffset& offset :
           coordinator_->fetch_offsets(listing.group_id, std::nullopt)) {
        text += "  offset " + offset.topic_partition.topic + ":" +
                std::to_string(offset.topic_partition.partition) + "=" +
                std::to_string(offset.committed.offset) + " " + offset.committed.metadata + "\n";
      }
    }
    return text;
  }

  // Builds a Stable group of `size` members the way clients do: each new member
  // joins, the existing ones rejoin, then everyone syncs and the leader assigns
  // "assignment-<member id>" to each.
  StableGroup form_stable_group(const std::string& group_id, int size) {
    StableGroup group;
    for (int joined = 0; joined < size; ++joined) {
      std::vector<JoinCapture> captures;
      captures.push_back(join(join_params(group_id)));
      for (const std::string& member_id : group.member_ids) {
        captures.push_back(join(join_params(group_id, member_id)));
      }
      for (JoinCapture& capture : captures) {
        EXPECT_TRUE(capture.done());
        EXPECT_EQ(capture.result().error, GroupError::kNone);
        group.generation_id = capture.result().generation_id;
      }
      group.member_ids.push_back(captures.front().result().member_id);
    }
    std::vector<MemberAssignment> assignments;
    for (const std::string& member_id : group.member_ids) {
      assignments.push_back(MemberAssignment{member_id, bytes("assignment-" + member_id)});
    }
    SyncCapture leader_sync =
        sync(group_id, group.generation_id, group.member_ids.front(), assignments);
    EXPECT_EQ(leader_sync.result().error, GroupError::kNone);
    for (std::size_t i = 1; i < group.member_ids.size(); ++i) {
      EXPECT_EQ(sync(group_id, group.generation_id, group.member_ids[i]).result().error,
                GroupError::kNone);
    }
    EXPECT_EQ(state(group_id), "Stable");
    return group;
  }

 private:
  ManualClock clock_;
  std::vector<std::string> log_;
  std::unique_ptr<GroupCoordinator> coordinator_;
};

}  // namespace kgroups::broker
