// SPDX-License-Identifier: Apache-2.0
//
// ConsumerGroupHeartbeat in a Stable group changes nothing (the heartbeat of a known member
// updates what it says of itself in place and keeps its partitions), and the group's
// partition ownership stays exclusive and complete across joins, leaves, fencing and
// rejoins, heartbeat after heartbeat.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "broker/coordinator/consumer_group_test_harness.h"

namespace kgroups::broker {
namespace {

constexpr std::int32_t kPartitions = 12;

// What a description says of the group's epochs and each member's reconciliation.
using MemberView = std::tuple<std::string, std::int32_t, std::string, std::vector<std::string>,
                              std::vector<NamedTopicPartitions>, std::vector<NamedTopicPartitions>,
                              std::vector<NamedTopicPartitions>>;
struct GroupView {
  std::string state;
  std::int32_t group_epoch = 0;
  std::int32_t assignment_epoch = 0;
  std::vector<MemberView> members;

  bool operator==(const GroupView&) const = default;
};

GroupView view(ConsumerGroupHarness& harness) {
  ConsumerGroupDescription description = harness.describe();
  GroupView result{
      description.group_state, description.group_epoch, description.assignment_epoch, {}};
  for (ConsumerMemberDescription& m : description.members) {
    result.members.emplace_back(m.member_id, m.member_epoch, m.member_state,
                                m.subscribed_topic_names, m.assignment, m.target_assignment,
                                m.pending_revocation);
  }
  return result;
}

// Checks that no two consumers own a partition at once.
void expect_exclusive(const std::vector<HeartbeatingConsumer*>& consumers) {
  std::vector<const ConsumerAssignment*> owned;
  for (const HeartbeatingConsumer* consumer : consumers) {
    if (consumer->joined) owned.push_back(&consumer->owned);
  }
  EXPECT_TRUE(disjoint(owned));
}

// Heartbeats the joined consumers one by one until a round changes nothing, checking after
// every heartbeat that ownership is exclusive; then checks every partition is owned.
void settle_checking(ConsumerGroupHarness& harness,
                     const std::vector<HeartbeatingConsumer*>& consumers) {
  for (int round = 0; round < 20; ++round) {
    bool changed = false;
    for (HeartbeatingConsumer* consumer : consumers) {
      if (!consumer->joined) continue;
      const std::int32_t epoch = consumer->member_epoch;
      const ConsumerAssignment owned = consumer->owned;
      ASSERT_EQ(harness.heartbeat(*consumer).error, GroupError::kNone);
      expect_exclusive(consumers);
      changed = changed || epoch != consumer->member_epoch || owned != consumer->owned;
    }
    if (!changed) break;
  }
  std::size_t owned = 0;
  for (const HeartbeatingConsumer* consumer : consumers) {
    if (consumer->joined) owned += partition_count(consumer->owned);
  }
  EXPECT_EQ(owned, static_cast<std::size_t>(kPartitions));
  EXPECT_EQ(harness.describe().group_state, "Stable");
}

TEST(ConsumerGroupSteady, HeartbeatsInAStableGroupChangeNothing) {
  ConsumerGroupHarness harness;
  harness.catalog().create_topic("orders", kPartitions);
  HeartbeatingConsumer a{.topics = {"orders"}};
  HeartbeatingConsumer b{.topics = {"orders"}};
  HeartbeatingConsumer c{.topics = {"orders"}};
  for (HeartbeatingConsumer* consumer : {&a, &b, &c}) harness.join(*consumer);
  harness.settle({&a, &b, &c});
  const GroupView stable = view(harness);
  ASSERT_EQ(stable.state, "Stable");
  for (HeartbeatingConsumer* consumer : {&a, &b, &c}) {
    const ConsumerAssignment owned = consumer->owned;
    const std::int32_t epoch = consumer->member_epoch;
    // Reporting the partitions it owns.
    ConsumerGroupHeartbeatResult result = harness.heartbeat(*consumer);
    EXPECT_EQ(result.error, GroupError::kNone);
    EXPECT_EQ(result.member_epoch, epoch);
    EXPECT_FALSE(result.assignment.has_value());
    // Reporting nothing (owned partitions unchanged).
    ConsumerGroupHeartbeatParams quiet = ConsumerGroupHarness::heartbeat_params(*consumer);
    quiet.owned_topic_partitions.reset();
    result = harness.send(*consumer, quiet);
    EXPECT_EQ(result.error, GroupError::kNone);
    EXPECT_FALSE(result.assignment.has_value());
    // A full request (as after a reconnect) is answered with the same partitions.
    ConsumerGroupHeartbeatParams full = ConsumerGroupHarness::heartbeat_params(*consumer);
    full.rebalance_timeout_ms = 30000;
    full.subscribed_topic_names = consumer->topics;
    result = harness.send(*consumer, full);
    EXPECT_EQ(result.error, GroupError::kNone);
    ASSERT_TRUE(result.assignment.has_value());
    EXPECT_EQ(from_topic_partitions(*result.assignment), owned);
    EXPECT_EQ(consumer->member_epoch, epoch);
  }
  EXPECT_EQ(view(harness), stable);
}

TEST(ConsumerGroupSteady, OwnershipStaysExclusiveAndCompleteAcrossJoinsLeavesAndFencing) {
  ConsumerGroupHarness harness;
  harness.catalog().create_topic("orders", kPartitions);
  HeartbeatingConsumer a{.topics = {"orders"}};
  HeartbeatingConsumer b{.topics = {"orders"}};
  HeartbeatingConsumer c{.topics = {"orders"}};
  HeartbeatingConsumer d{.topics = {"orders"}};
  const std::vector<HeartbeatingConsumer*> all{&a, &b, &c, &d};
  harness.join(a);
  harness.join(b);
  settle_checking(harness, all);
  // Two more join; each takes partitions only once their owners released them.
  harness.join(c);
  harness.join(d);
  settle_checking(harness, all);
  EXPECT_EQ(partition_count(d.owned), 3u);

  // A heartbeat with an epoch ahead of b's is fenced and changes nothing.
  const GroupView before = view(harness);
  HeartbeatingConsumer stale = b;
  stale.member_epoch = b.member_epoch + 1;
  EXPECT_EQ(harness.heartbeat(stale).error, GroupError::kFencedMemberEpoch);
  EXPECT_EQ(view(harness), before);

  // b rejoins from scratch (as after being fenced): what it had is released at once.
  b.member_epoch = 0;
  b.owned.clear();
  ASSERT_EQ(harness.join(b).error, GroupError::kNone);
  settle_checking(harness, all);

  // c leaves: the others take its partitions.
  harness.leave(c);
  settle_checking(harness, all);
  EXPECT_EQ(partition_count(a.owned) + partition_count(b.owned) + partition_count(d.owned),
            static_cast<std::size_t>(kPartitions));
}

}  // namespace
}  // namespace kgroups::broker
