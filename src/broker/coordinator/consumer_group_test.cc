// SPDX-License-Identifier: Apache-2.0
//
// ConsumerGroup's indexes (partition epochs, subscription and assignor counts, static
// members, timers, member bytes) stay equal to what its members imply when members are
// added, replaced (put_member re-indexes only what changed), updated in place
// (update_member_details), replaced by a static member and removed. Each test compares
// the group with a recomputation from its members after every step.
#include "broker/coordinator/consumer_group.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace kgroups::broker {
namespace {

TopicId topic_id(std::uint8_t n) {
  TopicId id{};
  id[15] = n;
  return id;
}

const TopicId kOrders = topic_id(1);
const TopicId kPayments = topic_id(2);
constexpr std::int32_t kPartitions = 6;  // per topic in these tests

Clock::TimePoint at(int seconds) { return Clock::TimePoint{} + std::chrono::seconds(seconds); }

ConsumerGroupMember member(std::string id, std::int32_t epoch, ConsumerAssignment assigned,
                           ConsumerAssignment pending = {}) {
  ConsumerGroupMember m;
  m.member_id = std::move(id);
  m.client_id = "client";
  m.client_host = "/127.0.0.1";
  m.subscribed_topic_names = {"orders"};
  m.member_epoch = epoch;
  m.state = pending.empty() ? MemberState::kStable : MemberState::kUnrevokedPartitions;
  m.assigned_partitions = std::move(assigned);
  m.partitions_pending_revocation = std::move(pending);
  m.session_deadline = at(45);
  return m;
}

// Checks every index of the group against a recomputation from its members.
void expect_indexes_match_members(const ConsumerGroup& group) {
  std::map<std::pair<TopicId, std::int32_t>, std::int32_t> epochs;
  std::map<std::string, int, std::less<>> topic_counts;
  std::map<std::string, int> assignor_counts;
  std::size_t bytes = 0;
  std::vector<std::tuple<Clock::TimePoint, std::string, MemberTimer>> timers;
  for (const auto& [id, m] : group.members()) {
    for (const ConsumerAssignment* partitions :
         {&m.assigned_partitions, &m.partitions_pending_revocation}) {
      for (const auto& [topic, numbers] : *partitions) {
        for (std::int32_t partition : numbers) epochs[{topic, partition}] = m.member_epoch;
      }
    }
    for (const std::string& name : m.subscribed_topic_names) ++topic_counts[name];
    if (m.server_assignor) ++assignor_counts[*m.server_assignor];
    bytes += consumer_member_bytes(m);
    if (m.session_deadline) timers.emplace_back(*m.session_deadline, id, MemberTimer::kSession);
    if (m.rebalance_deadline) {
      timers.emplace_back(*m.rebalance_deadline, id, MemberTimer::kRebalance);
    }
    if (m.instance_id) {
      const ConsumerGroupMember* holder = group.static_member(*m.instance_id);
      ASSERT_NE(holder, nullptr) << *m.instance_id;
      EXPECT_EQ(holder->member_id, id);
    }
  }
  for (const TopicId& topic : {kOrders, kPayments}) {
    for (std::int32_t partition = 0; partition < kPartitions; ++partition) {
      auto expected = epochs.find({topic, partition});
      EXPECT_EQ(group.partition_epoch(topic, partition),
                expected == epochs.end() ? -1 : expected->second)
          << "topic " << int(topic[15]) << " partition " << partition;
    }
  }
  EXPECT_EQ(group.subscribed_topic_counts(), topic_counts);
  EXPECT_EQ(group.member_bytes(), bytes);
  std::sort(timers.begin(), timers.end());
  std::vector<std::pair<std::string, MemberTimer>> due;
  for (const auto& [deadline, id, kind] : timers) due.emplace_back(id, kind);
  EXPECT_EQ(group.due_timers(Clock::TimePoint::max()), due);
  if (timers.empty()) {
    EXPECT_EQ(group.next_deadline(), std::nullopt);
  } else {
    EXPECT_EQ(group.next_deadline(), std::get<0>(timers.front()));
  }
  std::string preferred = "none";
  int most = 0;
  for (const auto& [name, count] : assignor_counts) {
    if (count > most) std::tie(preferred, most) = std::tie(name, count);
  }
  EXPECT_EQ(group.preferred_assignor("none"), preferred);
}

TEST(ConsumerGroupIndexes, PartitionEpochsFollowARevocationAndTheNextEpoch) {
  ConsumerGroup group("group");
  group.put_member(member("a", 1, {{kOrders, {0, 1, 2}}}));
  expect_indexes_match_members(group);
  // a must revoke 1 and 2: it still owns them at epoch 1.
  group.put_member(member("a", 1, {{kOrders, {0}}}, {{kOrders, {1, 2}}}));
  expect_indexes_match_members(group);
  EXPECT_EQ(group.partition_epoch(kOrders, 2), 1);
  // a revoked them and moved to epoch 2: 0 is now owned at 2, 1 and 2 by nobody.
  group.put_member(member("a", 2, {{kOrders, {0}}}));
  expect_indexes_match_members(group);
  EXPECT_EQ(group.partition_epoch(kOrders, 0), 2);
  EXPECT_EQ(group.partition_epoch(kOrders, 1), -1);
  group.put_member(member("b", 2, {{kOrders, {1, 2}}, {kPayments, {0}}}));
  expect_indexes_match_members(group);
  EXPECT_EQ(group.partition_epoch(kOrders, 1), 2);
  EXPECT_EQ(group.partition_epoch(kPayments, 0), 2);
}

TEST(ConsumerGroupIndexes, RemovingAMemberReleasesItsPartitionsAndTimers) {
  ConsumerGroup group("group");
  group.put_member(member("a", 3, {{kOrders, {0, 1}}}, {{kPayments, {4}}}));
  group.put_member(member("b", 3, {{kOrders, {2}}}));
  ASSERT_TRUE(group.remove_member("a"));
  expect_indexes_match_members(group);
  EXPECT_EQ(group.partition_epoch(kOrders, 0), -1);
  EXPECT_EQ(group.partition_epoch(kPayments, 4), -1);
  EXPECT_EQ(group.partition_epoch(kOrders, 2), 3);
  EXPECT_FALSE(group.remove_member("a"));
}

TEST(ConsumerGroupIndexes, UpdatingDetailsKeepsEpochsStatePartitionsAndRebalanceDeadline) {
  ConsumerGroup group("group");
  ConsumerGroupMember a = member("a", 4, {{kOrders, {0}}}, {{kOrders, {1}}});
  a.rebalance_deadline = at(30);
  group.put_member(a);
  ConsumerGroupMember details = a.without_partitions();
  EXPECT_TRUE(details.assigned_partitions.empty());
  EXPECT_TRUE(details.partitions_pending_revocation.empty());
  // What the coordinator changes on a heartbeat, and what update_member_details ignores.
  details.subscribed_topic_names = {"orders", "payments"};
  details.server_assignor = "range";
  details.instance_id = "instance-a";
  details.client_id = "another-client";
  details.session_deadline = at(90);
  details.member_epoch = 99;
  details.state = MemberState::kStable;
  details.rebalance_deadline.reset();
  details.assigned_partitions = {{kPayments, {5}}};
  group.update_member_details(details);
  expect_indexes_match_members(group);
  const ConsumerGroupMember& stored = *group.find_member("a");
  EXPECT_EQ(stored.member_epoch, 4);
  EXPECT_EQ(stored.state, MemberState::kUnrevokedPartitions);
  EXPECT_EQ(stored.assigned_partitions, a.assigned_partitions);
  EXPECT_EQ(stored.partitions_pending_revocation, a.partitions_pending_revocation);
  EXPECT_EQ(stored.rebalance_deadline, at(30));
  EXPECT_EQ(stored.session_deadline, at(90));
  EXPECT_EQ(stored.client_id, "another-client");
  EXPECT_EQ(group.partition_epoch(kPayments, 5), -1);
  EXPECT_EQ(group.partition_epoch(kOrders, 1), 4);
  EXPECT_EQ(group.subscribed_topic_counts().at("payments"), 1);
  EXPECT_EQ(group.preferred_assignor("uniform"), "range");
  EXPECT_EQ(group.static_member("instance-a"), &stored);
}

TEST(ConsumerGroupIndexes, AHeartbeatThatChangesNothingLeavesEveryIndexAlone) {
  ConsumerGroup group("group");
  group.put_member(member("a", 2, {{kOrders, {0, 1, 2}}}));
  group.put_member(member("b", 2, {{kOrders, {3, 4, 5}}}));
  group.update_member_details(group.find_member("a")->without_partitions());
  group.put_member(*group.find_member("b"));
  expect_indexes_match_members(group);
  EXPECT_EQ(group.find_member("a")->assigned_partitions,
            (ConsumerAssignment{{kOrders, {0, 1, 2}}}));
  EXPECT_EQ(group.partition_epoch(kOrders, 4), 2);
  EXPECT_EQ(group.due_timers(at(45)).size(), 2u);
}

TEST(ConsumerGroupIndexes, AStaticMemberReplacedKeepsThePartitionsUnderItsNewId) {
  ConsumerGroup group("group");
  ConsumerGroupMember old_member = member("old", 5, {{kOrders, {0, 1}}});
  old_member.instance_id = "instance";
  group.put_member(old_member);
  ConsumerGroupMember new_member = old_member;
  new_member.member_id = "new";
  group.replace_member("old", new_member);
  expect_indexes_match_members(group);
  EXPECT_EQ(group.find_member("old"), nullptr);
  EXPECT_EQ(group.static_member("instance")->member_id, "new");
  EXPECT_EQ(group.partition_epoch(kOrders, 1), 5);
}

// Random puts, detail updates and removals of a few members over two topics, each checked
// against the recomputation; partitions move between members as reconciliation moves them
// (never owned by two members at once).
TEST(ConsumerGroupIndexes, RandomChangesKeepEveryIndexEqualToTheMembers) {
  std::mt19937 random(27);
  auto pick = [&random](int n) { return static_cast<int>(random() % static_cast<unsigned>(n)); };
  const std::vector<std::string> ids{"m0", "m1", "m2", "m3"};
  ConsumerGroup group("group");
  for (int step = 0; step < 2000; ++step) {
    const std::string& id = ids[static_cast<std::size_t>(pick(4))];
    const ConsumerGroupMember* current = group.find_member(id);
    const int action = pick(10);
    if (action == 0) {
      group.remove_member(id);
    } else if (action < 4 && current != nullptr) {
      ConsumerGroupMember details = current->without_partitions();
      if (pick(2) == 0) details.session_deadline = at(pick(100));
      if (pick(3) == 0) details.subscribed_topic_names = {pick(2) == 0 ? "orders" : "payments"};
      if (pick(3) == 0) {
        details.server_assignor = pick(2) == 0 ? std::optional<std::string>("range") : std::nullopt;
      }
      if (pick(4) == 0) {
        details.instance_id =
            pick(2) == 0 ? std::optional<std::string>("instance-" + id) : std::nullopt;
      }
      group.update_member_details(std::move(details));
    } else {
      ConsumerGroupMember next = current != nullptr ? *current : member(id, 0, {}, {});
      next.member_epoch = current != nullptr && pick(2) == 0 ? current->member_epoch : pick(6);
      next.assigned_partitions.clear();
      next.partitions_pending_revocation.clear();
      // Each free partition, or one this member owns, may be taken (assigned or pending).
      for (const TopicId& topic : {kOrders, kPayments}) {
        for (std::int32_t partition = 0; partition < kPartitions; ++partition) {
          bool mine = current != nullptr &&
                      (contains(current->assigned_partitions, topic, partition) ||
                       contains(current->partitions_pending_revocation, topic, partition));
          bool free = group.partition_epoch(topic, partition) == -1;
          if (!mine && !free) continue;
          const int choice = pick(3);
          if (choice == 1) add_partition(next.assigned_partitions, topic, partition);
          if (choice == 2) add_partition(next.partitions_pending_revocation, topic, partition);
        }
      }
      if (pick(3) == 0) next.rebalance_deadline = at(pick(100));
      if (pick(3) == 0) next.rebalance_deadline.reset();
      group.put_member(std::move(next));
    }
    expect_indexes_match_members(group);
    if (::testing::Test::HasFailure()) {
      ADD_FAILURE() << "after step " << step;
      return;
    }
  }
}

}  // namespace
}  // namespace kgroups::broker
