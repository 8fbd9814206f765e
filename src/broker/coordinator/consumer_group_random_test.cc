// SPDX-License-Identifier: Apache-2.0
//
// Randomized joins, leaves, heartbeats, clock steps and topic growth: after every
// step no partition belongs to two members, neither as the coordinator sees it
// (assigned or pending revocation) nor as the members it still has see it.
#include <gtest/gtest.h>

#include <random>

#include "broker/coordinator/consumer_group_test_harness.h"

namespace kgroups::broker {
namespace {

using std::chrono::milliseconds;

// Returns how many members wait to revoke partitions (so the test sees that it
// exercised revocation).
int expect_no_partition_owned_twice(ConsumerGroupHarness& harness,
                                    const std::vector<HeartbeatingConsumer>& consumers, int step) {
  ConsumerGroupDescription description = harness.describe();
  int revoking = 0;
  std::vector<ConsumerAssignment> server_side;
  std::vector<const ConsumerAssignment*> client_side;
  for (const ConsumerMemberDescription& member : description.members) {
    ConsumerAssignment held;
    for (const auto* lists : {&member.assignment, &member.pending_revocation}) {
      for (const NamedTopicPartitions& list : *lists) {
        for (std::int32_t partition : list.partitions) {
          add_partition(held, list.topic_id, partition);
        }
      }
    }
    server_side.push_back(std::move(held));
    if (!member.pending_revocation.empty()) ++revoking;
    for (const HeartbeatingConsumer& consumer : consumers) {
      if (consumer.joined && consumer.member_id == member.member_id) {
        client_side.push_back(&consumer.owned);
      }
    }
  }
  std::vector<const ConsumerAssignment*> server_pointers;
  for (const ConsumerAssignment& held : server_side) server_pointers.push_back(&held);
  EXPECT_TRUE(disjoint(server_pointers)) << "coordinator, step " << step;
  EXPECT_TRUE(disjoint(client_side)) << "members, step " << step;
  return revoking;
}

TEST(ConsumerGroupRandom, NoPartitionIsEverOwnedByTwoMembers) {
  for (const char* assignor : {"uniform", "range"}) {
    ConsumerGroupHarness harness;
    const TopicId orders = harness.catalog().create_topic("orders", 6);
    harness.catalog().create_topic("payments", 3);
    std::vector<HeartbeatingConsumer> consumers(6);
    for (std::size_t i = 0; i < consumers.size(); ++i) {
      consumers[i].topics = i % 3 == 2 ? std::vector<std::string>{"orders", "payments"}
                                       : std::vector<std::string>{"orders"};
      consumers[i].server_assignor = assignor;
    }
    std::mt19937 random(42);
    int revoking_steps = 0;
    for (int step = 0; step < 2000; ++step) {
      HeartbeatingConsumer& consumer = consumers[random() % consumers.size()];
      const unsigned action = random() % 100;
      if (action < 10) {
        if (!consumer.joined) {
          consumer.member_id.clear();
          harness.join(consumer);
        }
      } else if (action < 15) {
        if (consumer.joined) harness.leave(consumer);
      } else if (action < 20) {
        harness.advance(milliseconds(random() % 8000));
      } else if (action < 21) {
        harness.catalog().set_partition_count("orders", 6 + static_cast<int>(random() % 6));
      } else if (consumer.joined) {
        harness.heartbeat(consumer);
      }
      if (expect_no_partition_owned_twice(harness, consumers, step) > 0) ++revoking_steps;
      if (testing::Test::HasFailure()) return;
    }
    EXPECT_GT(revoking_steps, 50) << assignor;
    // Quiet down: everyone left joined heartbeats until nothing changes.
    std::vector<HeartbeatingConsumer*> all;
    for (HeartbeatingConsumer& consumer : consumers) all.push_back(&consumer);
    harness.settle(all);
    ConsumerGroupDescription description = harness.describe();
    if (description.error == GroupError::kGroupIdNotFound) continue;
    EXPECT_EQ(description.group_state, description.members.empty() ? "Empty" : "Stable");
    std::size_t orders_owned = 0;
    for (const HeartbeatingConsumer& consumer : consumers) {
      if (consumer.joined) orders_owned += harness.partitions(consumer, orders).size();
    }
    if (!description.members.empty()) {
      EXPECT_EQ(orders_owned,
                static_cast<std::size_t>(harness.catalog().find_by_name("orders")->partition_count))
          << assignor;
    }
  }
}

}  // namespace
}  // namespace kgroups::broker
