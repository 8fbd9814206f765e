// SPDX-License-Identifier: Apache-2.0
//
// ClassicRebalance on its own, without a GroupCoordinator: a group, a context on a manual
// clock, and the rebalance's steps.
#include "broker/coordinator/classic_rebalance.h"

#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "broker/coordinator/coordinator_test_harness.h"

namespace kgroups::broker {
namespace {

using std::chrono::milliseconds;

class ClassicRebalanceSteps : public ::testing::Test {
 protected:
  ClassicRebalanceSteps() : context_(CoordinatorConfig{}, clock_, {}) {
    context_.config.initial_rebalance_delay_ms = 0;
  }

  // Adds a member parked in JoinGroup; its answer lands in joins_[id].
  void add_joining_member(const std::string& id) {
    GroupMember member;
    member.member_id = id;
    member.protocol_type = "consumer";
    member.protocols = protocols({"range"});
    member.session_timeout_ms = 10000;
    member.rebalance_timeout_ms = 5000;
    member.join_callback = [this, id](JoinGroupResult result) {
      joins_.emplace_back(id, std::move(result));
    };
    group_.add_member(std::move(member));
  }

  ManualClock clock_;
  ClassicGroupContext context_;
  ClassicRebalance rebalance_{context_};
  ClassicGroup group_{"g"};
  std::vector<std::pair<std::string, JoinGroupResult>> joins_;
};

TEST_F(ClassicRebalanceSteps, AJoinPhaseWhoseMembersAllRejoinedFormsTheNextGenerationAtOnce) {
  add_joining_member("a");
  add_joining_member("b");
  rebalance_.prepare(group_, "test");
  context_.completions.run();
  EXPECT_EQ(group_.state(), ClassicGroupState::kCompletingRebalance);
  EXPECT_EQ(group_.generation_id(), 1);
  ASSERT_EQ(joins_.size(), 2u);
  for (const auto& [id, result] : joins_) {
    EXPECT_EQ(result.generation_id, 1);
    EXPECT_EQ(result.leader_id, "a");
    EXPECT_EQ(result.members.size(), id == "a" ? 2u : 0u) << "only the leader gets the members";
  }
  EXPECT_EQ(group_.next_deadline(), clock_.now() + milliseconds(5000)) << "the sync deadline";
}

TEST_F(ClassicRebalanceSteps, MembersWithoutSyncGroupByTheDeadlineAreRemovedAndTheGroupRebalances) {
  add_joining_member("a");
  rebalance_.prepare(group_, "test");
  context_.completions.run();
  ASSERT_EQ(group_.state(), ClassicGroupState::kCompletingRebalance);
  clock_.advance(milliseconds(5000));
  rebalance_.fire_due_timers(group_, clock_.now());
  EXPECT_EQ(group_.find_member("a"), nullptr);
  EXPECT_EQ(group_.state(), ClassicGroupState::kEmpty) << "the next generation has no members";
  EXPECT_EQ(group_.generation_id(), 2);
}

TEST_F(ClassicRebalanceSteps, RemovingAMemberOfAStableGroupStartsARebalance) {
  add_joining_member("a");
  add_joining_member("b");
  rebalance_.prepare(group_, "test");
  context_.completions.run();
  group_.transition_to(ClassicGroupState::kStable);
  rebalance_.remove_member(group_, *group_.find_member("b"), "b left");
  EXPECT_EQ(group_.state(), ClassicGroupState::kPreparingRebalance)
      << "a has not rejoined, so the join phase waits for it";
  EXPECT_EQ(group_.members().size(), 1u);
}

}  // namespace
}  // namespace kgroups::broker
