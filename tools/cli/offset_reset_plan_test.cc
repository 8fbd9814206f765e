// SPDX-License-Identifier: Apache-2.0
#include "offset_reset_plan.h"

#include <gtest/gtest.h>

namespace kgroups::cli {
namespace {

std::vector<TopicPartitionId> partitions() { return {{"t", 0}, {"t", 1}}; }
PartitionOffsets earliest() { return {{{"t", 0}, 2}, {{"t", 1}, 0}}; }
PartitionOffsets latest() { return {{{"t", 0}, 10}, {{"t", 1}, 4}}; }
PartitionOffsets committed() { return {{{"t", 0}, 7}}; }

std::vector<std::int64_t> new_offsets(ResetTarget target) {
  std::vector<std::int64_t> offsets;
  for (const PlannedReset& reset :
       plan_offset_reset(partitions(), committed(), earliest(), latest(), target)) {
    offsets.push_back(reset.new_offset);
  }
  return offsets;
}

TEST(OffsetResetPlan, ToEarliestIsEachLogStart) {
  EXPECT_EQ(new_offsets({ResetTarget::Kind::kEarliest, 0}), (std::vector<std::int64_t>{2, 0}));
}

TEST(OffsetResetPlan, ToLatestIsEachEndOffset) {
  EXPECT_EQ(new_offsets({ResetTarget::Kind::kLatest, 0}), (std::vector<std::int64_t>{10, 4}));
}

TEST(OffsetResetPlan, ToOffsetOutsideTheRangeMovesToTheNearerEnd) {
  EXPECT_EQ(new_offsets({ResetTarget::Kind::kOffset, 3}), (std::vector<std::int64_t>{3, 3}));
  EXPECT_EQ(new_offsets({ResetTarget::Kind::kOffset, 1}), (std::vector<std::int64_t>{2, 1}));
  EXPECT_EQ(new_offsets({ResetTarget::Kind::kOffset, 50}), (std::vector<std::int64_t>{10, 4}));
}

TEST(OffsetResetPlan, CarriesTheCurrentCommittedOffset) {
  const std::vector<PlannedReset> plan = plan_offset_reset(
      partitions(), committed(), earliest(), latest(), {ResetTarget::Kind::kEarliest, 0});
  EXPECT_EQ(plan.at(0).current_offset, 7);
  EXPECT_FALSE(plan.at(1).current_offset.has_value());
}

}  // namespace
}  // namespace kgroups::cli
