// SPDX-License-Identifier: Apache-2.0
#include "replay_comparison.h"

#include <gtest/gtest.h>

#include <sstream>

namespace kgroups::cli {
namespace {

TEST(ReplayComparison, CooperativeStickyReplaysOnlyRecordsOfPartitionsThatMoved) {
  std::ostringstream narration;
  const ReplayCount cooperative = replay_after_leave("cooperative-sticky", narration);
  EXPECT_GT(cooperative.replayed, 0U);
  EXPECT_EQ(cooperative.replayed, cooperative.replayed_from_moved);
}

TEST(ReplayComparison, RangeAlsoReplaysTheSurvivorsOwnUncommittedRecords) {
  std::ostringstream narration;
  const ReplayCount eager = replay_after_leave("range", narration);
  const ReplayCount cooperative = replay_after_leave("cooperative-sticky", narration);
  EXPECT_GT(eager.replayed, eager.replayed_from_moved);
  EXPECT_GT(eager.replayed, cooperative.replayed);
  // Eagerly A and B restart all six partitions from the commit of batch 1, so
  // all 12 records of batch 2 come again, and nothing else.
  EXPECT_EQ(eager.replayed, 12U);
  EXPECT_EQ(eager.polled_after_leave, 12U);
}

}  // namespace
}  // namespace kgroups::cli
