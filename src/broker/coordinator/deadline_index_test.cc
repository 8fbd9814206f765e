// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/deadline_index.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

namespace kgroups::broker {
namespace {

using std::chrono::milliseconds;

constexpr Clock::TimePoint kStart{std::chrono::hours(1)};

std::vector<std::string> as_strings(const std::vector<std::string_view>& views) {
  return {views.begin(), views.end()};
}

TEST(DeadlineIndex, EarliestIsTheSmallestFiledDeadline) {
  DeadlineIndex index;
  const std::string a = "a";
  const std::string b = "b";
  EXPECT_FALSE(index.earliest().has_value());
  index.update(a, kStart + milliseconds(20));
  index.update(b, kStart + milliseconds(10));
  EXPECT_EQ(index.earliest(), kStart + milliseconds(10));
  EXPECT_EQ(index.size(), 2u);
}

TEST(DeadlineIndex, UpdateMovesAGroupAndNulloptRemovesIt) {
  DeadlineIndex index;
  const std::string a = "a";
  const std::string b = "b";
  index.update(a, kStart + milliseconds(10));
  index.update(b, kStart + milliseconds(20));
  index.update(a, kStart + milliseconds(30));
  EXPECT_EQ(index.earliest(), kStart + milliseconds(20));
  EXPECT_EQ(index.deadline_of("a"), kStart + milliseconds(30));
  index.update(b, std::nullopt);
  EXPECT_EQ(index.earliest(), kStart + milliseconds(30));
  EXPECT_FALSE(index.deadline_of("b").has_value());
  index.remove("a");
  EXPECT_FALSE(index.earliest().has_value());
  EXPECT_EQ(index.size(), 0u);
  index.remove("never filed");
  EXPECT_EQ(index.size(), 0u);
}

TEST(DeadlineIndex, DueAtListsTheDueGroupsByDeadlineThenId) {
  DeadlineIndex index;
  const std::vector<std::string> ids = {"d", "c", "b", "a"};
  index.update(ids[0], kStart + milliseconds(5));
  index.update(ids[1], kStart + milliseconds(10));
  index.update(ids[2], kStart + milliseconds(10));
  index.update(ids[3], kStart + milliseconds(11));
  EXPECT_TRUE(index.due_at(kStart + milliseconds(4)).empty());
  EXPECT_EQ(as_strings(index.due_at(kStart + milliseconds(10))),
            (std::vector<std::string>{"d", "b", "c"}));
  EXPECT_EQ(index.due_at(kStart + milliseconds(11)).size(), 4u);
}

TEST(DeadlineIndex, ClearForgetsEveryGroup) {
  DeadlineIndex index;
  const std::string a = "a";
  index.update(a, kStart);
  index.clear();
  EXPECT_FALSE(index.earliest().has_value());
  EXPECT_TRUE(index.due_at(kStart).empty());
}

}  // namespace
}  // namespace kgroups::broker
