// SPDX-License-Identifier: Apache-2.0
//
// What the coordinators tell their GroupObserver, in order, as classic groups
// (JoinGroup/SyncGroup/LeaveGroup/expiry) and consumer groups (heartbeats) go through their
// lives.
#include "broker/coordinator/group_observer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "broker/coordinator/consumer_group_test_harness.h"
#include "broker/coordinator/coordinator_test_harness.h"

namespace kgroups::broker {
namespace {

std::string render(const std::vector<AssignedTopicPartitions>& topics) {
  std::string text = "[";
  for (const AssignedTopicPartitions& topic : topics) {
    text += (text.size() > 1 ? " " : "") + topic.topic + ":";
    for (std::size_t i = 0; i < topic.partitions.size(); ++i) {
      text += (i == 0 ? "" : ",") + std::to_string(topic.partitions[i]);
    }
  }
  return text + "]";
}

// Writes each observation as one line; lines() and take() show the member ids replaced by
// the names the test gave them (`name`), so expectations read as the scenario.
class RecordingObserver : public GroupObserver {
 public:
  void name(const std::string& member_id, std::string name) { names_[member_id] = std::move(name); }
  [[nodiscard]] std::vector<std::string> lines() const {
    std::vector<std::string> named;
    for (const std::string& line : lines_) named.push_back(replace_ids(line));
    return named;
  }
  std::vector<std::string> take() {
    std::vector<std::string> named = lines();
    lines_.clear();
    return named;
  }

  void on_member_joined(GroupType type, std::string_view group_id,
                        const ObservedMember& member) override {
    add(type, group_id, "joined " + who(member));
  }
  void on_member_left(GroupType type, std::string_view group_id, const ObservedMember& member,
                      std::string_view reason) override {
    add(type, group_id, "left " + who(member) + ": " + replace_ids(reason));
  }
  void on_member_expired(GroupType type, std::string_view group_id, const ObservedMember& member,
                         std::string_view reason) override {
    add(type, group_id, "expired " + who(member) + ": " + replace_ids(reason));
  }
  void on_rebalance_started(GroupType type, std::string_view group_id, std::int32_t generation,
                            std::string_view reason) override {
    add(type, group_id,
        "rebalance from " + std::to_string(generation) + ": " + replace_ids(reason));
  }
  void on_rebalance_completed(const ObservedRebalance& rebalance) override {
    std::string line = "generation " + std::to_string(rebalance.generation) + " " +
                       (rebalance.protocol.empty() ? "-" : std::string(rebalance.protocol)) +
                       " leader=" + (rebalance.leader_id.empty() ? "-" : id(rebalance.leader_id));
    for (const ObservedAssignment& member : rebalance.assignment) {
      line += " " + id(member.member_id) + "=" +
              (member.partitions ? render(*member.partitions) : "unreadable");
    }
    add(rebalance.type, rebalance.group_id, line);
  }
  void on_offsets_committed(GroupType type, std::string_view group_id, std::string_view member_id,
                            std::span<const PartitionOffset> offsets) override {
    std::string line = "committed by " + (member_id.empty() ? "-" : id(member_id)) + ":";
    for (const PartitionOffset& offset : offsets) {
      line += " " + offset.topic_partition.topic + "/" +
              std::to_string(offset.topic_partition.partition) + "=" +
              std::to_string(offset.committed.offset);
    }
    add(type, group_id, line);
  }
  void on_group_deleted(GroupType type, std::string_view group_id) override {
    add(type, group_id, "deleted");
  }

 private:
  void add(GroupType type, std::string_view group_id, const std::string& text) {
    lines_.push_back(std::string(group_type_name(type)) + " " + std::string(group_id) + " " + text);
  }
  std::string id(std::string_view member_id) const {
    auto found = names_.find(std::string(member_id));
    return found == names_.end() ? std::string(member_id) : found->second;
  }
  std::string who(const ObservedMember& member) const {
    return id(member.member_id) + " (" + std::string(member.client_id) +
           (member.instance_id ? ", instance " + std::string(*member.instance_id) : "") + ")";
  }
  std::string replace_ids(std::string_view text) const {
    std::string out(text);
    for (const auto& [member_id, name] : names_) {
      for (std::size_t at = out.find(member_id); at != std::string::npos;
           at = out.find(member_id, at + name.size())) {
        out.replace(at, member_id.size(), name);
      }
    }
    return out;
  }

  std::map<std::string, std::string> names_;
  std::vector<std::string> lines_;
};

using Lines = std::vector<std::string>;

std::vector<MemberAssignment> orders_assignment(
    const std::vector<std::pair<std::string, std::vector<std::int32_t>>>& partitions_by_member) {
  std::vector<MemberAssignment> assignments;
  for (const auto& [member_id, partitions] : partitions_by_member) {
    assignments.push_back({member_id, consumer_assignment_bytes({{"orders", partitions}})});
  }
  return assignments;
}

TEST(ClassicGroupObserver, ReportsAGroupsLifeInOrder) {
  CoordinatorHarness harness;
  RecordingObserver observer;
  harness.coordinator().set_observer(&observer);

  // The first member joins and leads generation 1.
  JoinCapture first = harness.join(CoordinatorHarness::join_params("g"));
  const std::string a = first.result().member_id;
  observer.name(a, "A");
  harness.sync("g", 1, a, orders_assignment({{a, {0, 1, 2}}}));
  EXPECT_EQ(observer.take(),
            (Lines{"classic g joined A (client)", "classic g rebalance from 0: member A joined",
                   "classic g generation 1 range leader=A A=[orders:0,1,2]"}));

  // A second member joins; the leader rejoins and shares the partitions.
  JoinCapture second = harness.join(CoordinatorHarness::join_params("g"));
  harness.join(CoordinatorHarness::join_params("g", a));
  const std::string b = second.result().member_id;
  observer.name(b, "B");
  harness.sync("g", 2, b);
  harness.sync("g", 2, a, orders_assignment({{a, {0, 1}}, {b, {2}}}));
  const std::string generation_2 =
      a < b ? "A=[orders:0,1] B=[orders:2]" : "B=[orders:2] A=[orders:0,1]";
  EXPECT_EQ(observer.take(),
            (Lines{"classic g joined B (client)", "classic g rebalance from 1: member B joined",
                   "classic g generation 2 range leader=A " + generation_2}));

  // A commit: the partition whose metadata is too large is not stored, so not reported.
  OffsetCommitParams commit;
  commit.group_id = "g";
  commit.generation_id = 2;
  commit.member_id = a;
  commit.offsets.push_back({{"orders", 0}, {5, ""}});
  commit.offsets.push_back({{"orders", 1}, {9, std::string(5000, 'x')}});
  commit.offsets.push_back({{"orders", 2}, {3, "meta"}});
  harness.coordinator().commit_offsets(commit);
  EXPECT_EQ(observer.take(), (Lines{"classic g committed by A: orders/0=5 orders/2=3"}));

  // B leaves; A rejoins alone and takes everything.
  harness.coordinator().leave_group("g", leaving({b}));
  harness.join(CoordinatorHarness::join_params("g", a));
  harness.sync("g", 3, a, orders_assignment({{a, {0, 1, 2}}}));
  EXPECT_EQ(observer.take(), (Lines{"classic g left B (client): member B left the group",
                                    "classic g rebalance from 2: member B left the group",
                                    "classic g generation 3 range leader=A A=[orders:0,1,2]"}));

  // A stops heartbeating: it expires, and the group's next generation has no members.
  harness.advance(std::chrono::milliseconds(10001));
  EXPECT_EQ(observer.take(),
            (Lines{"classic g expired A (client): member A sent no heartbeat within its session "
                   "timeout of 10000 ms",
                   "classic g rebalance from 3: member A sent no heartbeat within its session "
                   "timeout of 10000 ms",
                   "classic g generation 4 - leader=-"}));

  // The empty group keeps its offsets until it is deleted.
  EXPECT_EQ(harness.coordinator().delete_group("g"), GroupError::kNone);
  EXPECT_EQ(observer.take(), (Lines{"classic g deleted"}));
}

TEST(ClassicGroupObserver, RefusedCallsReportNothing) {
  CoordinatorHarness harness;
  RecordingObserver observer;
  harness.coordinator().set_observer(&observer);
  StableGroup group = harness.form_stable_group("g", 1);
  observer.take();

  harness.coordinator().leave_group("g", leaving({"nobody"}));
  OffsetCommitParams stale;
  stale.group_id = "g";
  stale.generation_id = 7;
  stale.member_id = group.member_ids[0];
  stale.offsets.push_back({{"orders", 0}, {5, ""}});
  EXPECT_EQ(harness.coordinator().commit_offsets(stale).error, GroupError::kIllegalGeneration);
  EXPECT_EQ(harness.coordinator().delete_group("g"), GroupError::kNonEmptyGroup);
  EXPECT_TRUE(observer.lines().empty()) << observer.lines().front();
}

TEST(ClassicGroupObserver, AssignmentOfAnotherProtocolTypeIsUnreadable) {
  CoordinatorHarness harness;
  RecordingObserver observer;
  harness.coordinator().set_observer(&observer);
  JoinGroupParams params = CoordinatorHarness::join_params("workers");
  params.protocol_type = "connect";
  const std::string a = harness.join(params).result().member_id;
  observer.name(a, "A");
  harness.sync("workers", 1, a, orders_assignment({{a, {0}}}));
  EXPECT_EQ(observer.lines().back(), "classic workers generation 1 range leader=A A=unreadable");
}

TEST(ClassicGroupObserver, MembersMissingTheRebalanceOrTheSyncExpire) {
  CoordinatorHarness harness;
  RecordingObserver observer;
  harness.coordinator().set_observer(&observer);
  StableGroup group = harness.form_stable_group("g", 2);
  const std::string a = group.member_ids[0];
  const std::string b = group.member_ids[1];
  observer.name(a, "A");
  observer.name(b, "B");
  observer.take();

  // The leader rejoins; B keeps heartbeating but never rejoins.
  harness.join(CoordinatorHarness::join_params("g", a));
  for (int i = 0; i < 3; ++i) {
    harness.advance(std::chrono::milliseconds(8000));
    harness.coordinator().heartbeat("g", group.generation_id, b, std::nullopt);
  }
  harness.advance(std::chrono::milliseconds(8000));
  EXPECT_EQ(observer.take(),
            (Lines{"classic g rebalance from 2: member A rejoined",
                   "classic g expired B (client): member B did not rejoin within the rebalance "
                   "timeout of 30000 ms"}));

  // A got generation 3 and heartbeats, but never syncs.
  for (int i = 0; i < 3; ++i) {
    harness.advance(std::chrono::milliseconds(8000));
    harness.coordinator().heartbeat("g", 3, a, std::nullopt);
  }
  harness.advance(std::chrono::milliseconds(8000));
  const Lines lines = observer.take();
  ASSERT_GE(lines.size(), 2U);
  EXPECT_EQ(lines[0],
            "classic g expired A (client): member A sent no SyncGroup within the rebalance "
            "timeout of 30000 ms");
  EXPECT_EQ(lines[1].rfind("classic g rebalance from 3: removed A: no SyncGroup", 0), 0U)
      << lines[1];
}

TEST(ClassicGroupObserver, StaticReplacementIsTheOldIdLeavingAndTheNewOneJoining) {
  CoordinatorHarness harness;
  RecordingObserver observer;
  harness.coordinator().set_observer(&observer);
  JoinGroupParams params = CoordinatorHarness::join_params("g");
  params.group_instance_id = "pod-1";
  const std::string old_id = harness.join(params).result().member_id;
  harness.sync("g", 1, old_id, orders_assignment({{old_id, {0}}}));
  observer.name(old_id, "OLD");
  observer.take();

  params = CoordinatorHarness::join_params("g");
  params.group_instance_id = "pod-1";
  const std::string new_id = harness.join(params).result().member_id;
  observer.name(new_id, "NEW");
  EXPECT_EQ(
      observer.take(),
      (Lines{"classic g left OLD (client, instance pod-1): static member pod-1 rejoined as NEW",
             "classic g joined NEW (client, instance pod-1)"}));
}

class ConsumerGroupObserverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    harness_.catalog().create_topic("orders", 4);
    harness_.coordinator().set_observer(&observer_);
  }

  ConsumerGroupHarness harness_;
  RecordingObserver observer_;
  HeartbeatingConsumer c1_{.topics = {"orders"}};
  HeartbeatingConsumer c2_{.topics = {"orders"}};
};

TEST_F(ConsumerGroupObserverTest, ReportsJoinsTargetAssignmentsLeavesAndExpiries) {
  ASSERT_EQ(harness_.join(c1_).error, GroupError::kNone);
  observer_.name(c1_.member_id, "C1");
  EXPECT_EQ(observer_.take(),
            (Lines{"consumer group joined C1 (client)",
                   "consumer group rebalance from 0: member C1 joined",
                   "consumer group generation 1 uniform leader=- C1=[orders:0,1,2,3]"}));

  ASSERT_EQ(harness_.join(c2_).error, GroupError::kNone);
  observer_.name(c2_.member_id, "C2");
  Lines lines = observer_.take();
  ASSERT_EQ(lines.size(), 3U);
  EXPECT_EQ(lines[0], "consumer group joined C2 (client)");
  EXPECT_EQ(lines[1], "consumer group rebalance from 1: member C2 joined");
  // Generation 2 splits the four partitions two and two (the uniform assignor is sticky: C1
  // keeps two of its own).
  EXPECT_EQ(lines[2].rfind("consumer group generation 2 uniform leader=- ", 0), 0U) << lines[2];
  EXPECT_NE(lines[2].find("C1=[orders:"), std::string::npos) << lines[2];
  EXPECT_NE(lines[2].find("C2=[orders:"), std::string::npos) << lines[2];
  harness_.settle({&c1_, &c2_});
  EXPECT_TRUE(observer_.take().empty()) << "reconciliation is no rebalance";

  OffsetCommitParams commit;
  commit.group_id = "group";
  commit.generation_id = c1_.member_epoch;
  commit.member_id = c1_.member_id;
  commit.offsets.push_back({{"orders", 0}, {11, ""}});
  EXPECT_EQ(harness_.coordinator().commit_offsets(commit).error, GroupError::kNone);
  EXPECT_EQ(observer_.take(), (Lines{"consumer group committed by C1: orders/0=11"}));

  ASSERT_EQ(harness_.leave(c2_).error, GroupError::kNone);
  EXPECT_EQ(observer_.take(), (Lines{"consumer group left C2 (client): member C2 left the group",
                                     "consumer group rebalance from 2: member C2 left the group"}));
  harness_.heartbeat(c1_);
  EXPECT_EQ(observer_.take(),
            (Lines{"consumer group generation 3 uniform leader=- C1=[orders:0,1,2,3]"}));

  harness_.advance(std::chrono::milliseconds(45001));
  EXPECT_EQ(observer_.take(),
            (Lines{"consumer group expired C1 (client): member C1 removed because its session "
                   "expired",
                   "consumer group rebalance from 3: member C1 removed because its session "
                   "expired"}));
}

TEST_F(ConsumerGroupObserverTest, SubscriptionChangesAndNewTopicsStartRebalances) {
  ASSERT_EQ(harness_.join(c1_).error, GroupError::kNone);
  observer_.name(c1_.member_id, "C1");
  observer_.take();
  harness_.catalog().create_topic("payments", 2);
  ConsumerGroupHeartbeatParams params = ConsumerGroupHarness::heartbeat_params(c1_);
  params.subscribed_topic_names = std::vector<std::string>{"orders", "payments"};
  ASSERT_EQ(harness_.send(c1_, params).error, GroupError::kNone);
  EXPECT_EQ(
      observer_.take(),
      (Lines{"consumer group rebalance from 1: member C1 changed its subscription",
             "consumer group generation 2 uniform leader=- C1=[orders:0,1,2,3 payments:0,1]"}));

  harness_.catalog().set_partition_count("payments", 3);
  harness_.heartbeat(c1_);
  EXPECT_EQ(observer_.take(),
            (Lines{"consumer group rebalance from 2: the subscribed topics' metadata changed",
                   "consumer group generation 3 uniform leader=- C1=[orders:0,1,2,3 "
                   "payments:0,1,2]"}));
}

TEST_F(ConsumerGroupObserverTest, CommitsFromOutsideAndDeletionAreReported) {
  OffsetCommitParams commit;
  commit.group_id = "group";
  commit.generation_id = -1;
  commit.offsets.push_back({{"orders", 1}, {4, ""}});
  ASSERT_EQ(harness_.coordinator().commit_offsets(commit).error, GroupError::kNone);
  EXPECT_EQ(harness_.coordinator().delete_group("group"), GroupError::kNone);
  EXPECT_EQ(observer_.take(),
            (Lines{"consumer group committed by -: orders/1=4", "consumer group deleted"}));
}

}  // namespace
}  // namespace kgroups::broker
