// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/classic_group.h"

#include <gtest/gtest.h>

#include "broker/coordinator/coordinator_test_harness.h"

namespace kgroups::broker {
namespace {

GroupMember member(std::string id, std::vector<GroupProtocol> member_protocols,
                   bool parked_in_join = true) {
  GroupMember added;
  added.member_id = std::move(id);
  added.protocol_type = "consumer";
  added.protocols = std::move(member_protocols);
  added.rebalance_timeout_ms = 1000;
  if (parked_in_join) added.join_callback = [](const JoinGroupResult&) {};
  return added;
}

// Takes a group with members to CompletingRebalance, selecting its protocol.
void complete_join(ClassicGroup& group) {
  group.transition_to(ClassicGroupState::kPreparingRebalance);
  group.init_next_generation();
}

TEST(ClassicGroup, FirstMemberLeadsAndSetsTheProtocolType) {
  ClassicGroup group("g");
  group.add_member(member("a", protocols({"range"})));
  group.add_member(member("b", protocols({"range"})));
  EXPECT_EQ(group.leader_id(), "a");
  EXPECT_EQ(group.protocol_type(), "consumer");
}

TEST(ClassicGroup, RemovingTheLeaderElectsTheEarliestRemainingMember) {
  ClassicGroup group("g");
  group.add_member(member("z", protocols({"range"})));
  group.add_member(member("m", protocols({"range"})));
  group.add_member(member("a", protocols({"range"})));
  group.remove_member("z");
  EXPECT_EQ(group.leader_id(), "m");  // added before "a", although "a" sorts first
  group.remove_member("a");
  EXPECT_EQ(group.leader_id(), "m");
  group.remove_member("m");
  EXPECT_EQ(group.leader_id(), "");
}

TEST(ClassicGroup, ProtocolIsTheCommonOneMostMembersPreferred) {
  ClassicGroup group("g");
  group.add_member(member("a", protocols({"range", "roundrobin", "sticky"})));
  group.add_member(member("b", protocols({"roundrobin", "range", "sticky"})));
  group.add_member(member("c", protocols({"sticky", "roundrobin", "range"})));
  group.add_member(member("d", protocols({"roundrobin", "range"})));
  complete_join(group);
  // sticky is not supported by d; among range and roundrobin, roundrobin gets 3 votes.
  EXPECT_EQ(group.protocol_name(), "roundrobin");
  EXPECT_EQ(group.generation_id(), 1);
  EXPECT_EQ(group.state(), ClassicGroupState::kCompletingRebalance);
}

TEST(ClassicGroup, ProtocolVoteTieGoesToTheLeadersPreference) {
  ClassicGroup group("g");
  group.add_member(member("a", protocols({"range", "roundrobin"})));
  group.add_member(member("b", protocols({"roundrobin", "range"})));
  complete_join(group);
  EXPECT_EQ(group.protocol_name(), "range");
}

TEST(ClassicGroup, SupportsProtocolsNeedsTheSameTypeAndOneProtocolEveryOtherMemberHas) {
  ClassicGroup group("g");
  EXPECT_FALSE(group.supports_protocols("consumer", {}, ""));
  EXPECT_FALSE(group.supports_protocols("", protocols({"range"}), ""));
  EXPECT_TRUE(group.supports_protocols("consumer", protocols({"anything"}), ""));
  group.add_member(member("a", protocols({"range", "roundrobin"})));
  EXPECT_TRUE(group.supports_protocols("consumer", protocols({"sticky", "roundrobin"}), ""));
  EXPECT_FALSE(group.supports_protocols("consumer", protocols({"sticky"}), ""));
  EXPECT_FALSE(group.supports_protocols("connect", protocols({"range"}), ""));
  // The only member may change its protocols freely: its old ones do not count.
  EXPECT_TRUE(group.supports_protocols("consumer", protocols({"sticky"}), "a"));
}

TEST(ClassicGroup, AllMembersJoinedOnlyWhenEveryMemberIsParkedAndNoIdIsPending) {
  ClassicGroup group("g");
  group.add_member(member("a", protocols({"range"})));
  group.add_member(member("b", protocols({"range"}), /*parked_in_join=*/false));
  EXPECT_FALSE(group.all_members_joined());
  group.find_member("b")->join_callback = [](const JoinGroupResult&) {};
  EXPECT_TRUE(group.all_members_joined());
  group.add_pending_member("c", Clock::TimePoint{});
  EXPECT_FALSE(group.all_members_joined());
}

TEST(ClassicGroup, JoinedMembersCarryTheSelectedProtocolsMetadataInJoinOrder) {
  ClassicGroup group("g");
  group.add_member(member("z", protocols({"roundrobin", "range"})));
  group.add_member(member("a", protocols({"range"})));
  complete_join(group);
  std::vector<JoinedMember> joined = group.joined_members();
  ASSERT_EQ(joined.size(), 2u);
  EXPECT_EQ(joined[0], (JoinedMember{"z", bytes("range"), std::nullopt}));
  EXPECT_EQ(joined[1], (JoinedMember{"a", bytes("range"), std::nullopt}));
}

TEST(ClassicGroup, JoinPhaseWithoutMembersLeavesTheGroupEmptyWithTheNextGeneration) {
  ClassicGroup group("g");
  group.transition_to(ClassicGroupState::kPreparingRebalance);
  group.init_next_generation();
  EXPECT_EQ(group.state(), ClassicGroupState::kEmpty);
  EXPECT_EQ(group.generation_id(), 1);
  EXPECT_EQ(group.protocol_name(), "");
}

TEST(ClassicGroup, CountsMetadataAndStoredBytesAsMembersChange) {
  ClassicGroup group("g");
  const std::size_t empty_bytes = group.stored_bytes();
  EXPECT_EQ(group.stored_bytes(), group.recount_stored_bytes());
  group.add_member(member("a", protocols({"range", "roundrobin"})));
  group.add_member(member("b", protocols({"range"})));
  EXPECT_EQ(group.metadata_bytes(), 10u + 20u + 10u);  // each name twice: as name and metadata
  group.update_protocols(*group.find_member("b"), protocols({"sticky"}));
  EXPECT_EQ(group.metadata_bytes(), 10u + 20u + 12u);
  group.set_assignment(*group.find_member("a"), bytes("partitions"));
  EXPECT_EQ(group.assignment_bytes(), 10u);
  EXPECT_EQ(group.metadata_bytes(), 52u);
  group.add_pending_member("c", Clock::TimePoint{});
  EXPECT_EQ(group.members_and_pending_count(), 3u);
  EXPECT_EQ(group.stored_bytes(), group.recount_stored_bytes());
  group.clear_assignments();
  EXPECT_EQ(group.assignment_bytes(), 0u);
  EXPECT_TRUE(group.remove_pending_member("c"));
  EXPECT_FALSE(group.remove_pending_member("c"));
  group.remove_member("a");
  group.remove_member("b");
  EXPECT_EQ(group.metadata_bytes(), 0u);
  // The protocol type stays with the group, as Kafka keeps it for an Empty group.
  EXPECT_EQ(group.stored_bytes(), empty_bytes + std::string("consumer").size());
  EXPECT_EQ(group.stored_bytes(), group.recount_stored_bytes());
}

TEST(GroupDeathTest, TransitionKafkaForbidsIsABug) {
  ClassicGroup group("g");
  EXPECT_DEATH(group.transition_to(ClassicGroupState::kStable), "cannot go from Empty to Stable");
}

TEST(ClassicGroup, StateNamesAreKafkas) {
  EXPECT_EQ(group_state_name(ClassicGroupState::kEmpty), "Empty");
  EXPECT_EQ(group_state_name(ClassicGroupState::kPreparingRebalance), "PreparingRebalance");
  EXPECT_EQ(group_state_name(ClassicGroupState::kCompletingRebalance), "CompletingRebalance");
  EXPECT_EQ(group_state_name(ClassicGroupState::kStable), "Stable");
  EXPECT_EQ(group_state_name(ClassicGroupState::kDead), "Dead");
}

}  // namespace
}  // namespace kgroups::broker
