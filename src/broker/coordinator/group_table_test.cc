// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/group_table.h"

#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kgroups::broker {
namespace {

using std::chrono::milliseconds;

constexpr Clock::TimePoint kStart{std::chrono::hours(1)};

// A group as GroupTable needs one: an id, the bytes it keeps and a deadline, set by hand.
class TestGroup {
 public:
  explicit TestGroup(std::string group_id, std::size_t bytes = 0)
      : bytes_(bytes), group_id_(std::move(group_id)) {}
  [[nodiscard]] const std::string& group_id() const { return group_id_; }
  [[nodiscard]] std::size_t stored_bytes() const { return bytes_; }
  [[nodiscard]] std::optional<Clock::TimePoint> next_deadline() const { return deadline_; }
  std::size_t bytes_;
  std::optional<Clock::TimePoint> deadline_;

 private:
  std::string group_id_;
};

TEST(GroupTable, ACreatedGroupIsCountedWhenSettledAndFoundById) {
  GroupTable<TestGroup> table;
  table.create("orders", std::size_t{100});
  EXPECT_EQ(table.stored_bytes(), 100u);  // touched groups count as they are now
  table.settle();
  EXPECT_EQ(table.stored_bytes(), 100u);
  ASSERT_NE(table.find("orders"), nullptr);
  EXPECT_EQ(table.find("orders")->group_id(), "orders");
  EXPECT_EQ(table.find("payments"), nullptr);
  EXPECT_EQ(table.size(), 1u);
}

TEST(GroupTable, ATouchedGroupsGrowthAndShrinkageReachTheTotal) {
  GroupTable<TestGroup> table;
  table.create("a", std::size_t{100});
  table.create("b", std::size_t{50});
  table.settle();
  table.find_to_change("a")->bytes_ = 130;
  EXPECT_EQ(table.stored_bytes(), 180u);
  table.settle();
  table.find_to_change("a")->bytes_ = 10;
  table.find_to_change("a");  // touched twice: counted once
  table.settle();
  EXPECT_EQ(table.stored_bytes(), 60u);
}

TEST(GroupTable, EraseUncountsWhatWasCountedTouchedOrNot) {
  GroupTable<TestGroup> table;
  table.create("a", std::size_t{100});
  table.create("b", std::size_t{50});
  table.settle();
  table.erase("a");
  EXPECT_EQ(table.stored_bytes(), 50u);
  table.find_to_change("b")->bytes_ = 70;
  table.erase("b");  // touched and grown in this call
  EXPECT_EQ(table.stored_bytes(), 0u);
  table.settle();
  EXPECT_EQ(table.stored_bytes(), 0u);
  EXPECT_EQ(table.size(), 0u);
}

TEST(GroupTable, SettleRefilesDeadlinesAndDueAtListsTheDueGroups) {
  GroupTable<TestGroup> table;
  table.create("late").deadline_ = kStart + milliseconds(30);
  table.create("soon").deadline_ = kStart + milliseconds(10);
  table.create("never");
  EXPECT_FALSE(table.next_deadline().has_value());  // filed when settled
  table.settle();
  EXPECT_EQ(table.next_deadline(), kStart + milliseconds(10));
  EXPECT_EQ(table.due_at(kStart + milliseconds(30)),
            (std::vector<std::string_view>{"soon", "late"}));
  table.find_to_change("soon")->deadline_.reset();
  table.settle();
  EXPECT_EQ(table.next_deadline(), kStart + milliseconds(30));
  table.erase("late");
  EXPECT_FALSE(table.next_deadline().has_value());
}

TEST(GroupTable, SettleForgetsTheTouchedGroupsItIsToldTo) {
  GroupTable<TestGroup> table;
  table.create("keep", std::size_t{5});
  table.create("drop", std::size_t{7}).deadline_ = kStart;
  std::vector<std::string> asked;
  table.settle([&asked](const TestGroup& group) {
    asked.push_back(group.group_id());
    return group.group_id() == "drop";
  });
  EXPECT_EQ(asked.size(), 2u);
  EXPECT_EQ(table.find("drop"), nullptr);
  EXPECT_EQ(table.stored_bytes(), 5u);
  EXPECT_FALSE(table.next_deadline().has_value());
  table.settle([&asked](const TestGroup&) {
    asked.emplace_back("again");
    return true;
  });
  EXPECT_EQ(asked.size(), 2u) << "only touched groups are asked";
}

TEST(GroupTable, ForEachToChangeTouchesOnlyTheGroupsItChanged) {
  GroupTable<TestGroup> table;
  table.create("a", std::size_t{1});
  table.create("b", std::size_t{2});
  table.settle();
  std::size_t visited = 0;
  table.for_each_to_change([&visited](TestGroup& group) {
    ++visited;
    if (group.group_id() != "b") return false;
    group.bytes_ = 20;
    return true;
  });
  EXPECT_EQ(visited, 2u);
  std::vector<std::string> asked;
  table.settle([&asked](const TestGroup& group) {
    asked.push_back(group.group_id());
    return false;
  });
  EXPECT_EQ(asked, std::vector<std::string>{"b"});
  EXPECT_EQ(table.stored_bytes(), 21u);
}

TEST(GroupTable, ClearForgetsEverything) {
  GroupTable<TestGroup> table;
  table.create("a", std::size_t{1}).deadline_ = kStart;
  table.settle();
  table.create("b", std::size_t{2});
  table.clear();
  EXPECT_EQ(table.size(), 0u);
  EXPECT_EQ(table.stored_bytes(), 0u);
  EXPECT_FALSE(table.next_deadline().has_value());
  table.settle();
  EXPECT_EQ(table.stored_bytes(), 0u);
}

}  // namespace
}  // namespace kgroups::broker
