// SPDX-License-Identifier: Apache-2.0
#include "crash_comparison.h"

#include <gtest/gtest.h>

#include <sstream>

namespace kgroups::cli {
namespace {

TEST(CrashComparison, ConsumerGroupReplaysFromTheLastCommitIncludingProcessedRecords) {
  std::ostringstream narration;
  CrashReplay replay;
  crash_in_consumer_group(narration, replay);
  EXPECT_GT(replay.consumer_replayed, replay.consumer_replayed_processed);
  EXPECT_EQ(replay.consumer_replayed_processed, 1U);  // processed after the commit, then crashed
}

TEST(CrashComparison, ShareGroupRedeliversOnlyWhatTheCrashedMemberHeld) {
  std::ostringstream narration;
  CrashReplay replay;
  crash_in_share_group(narration, replay);
  EXPECT_GT(replay.share_held_at_crash, 0U);
  EXPECT_EQ(replay.share_redelivered, replay.share_held_at_crash);
  EXPECT_EQ(replay.share_redelivered_processed, 0U);
  EXPECT_NE(narration.str().find("delivery count 2"), std::string::npos);
}

}  // namespace
}  // namespace kgroups::cli
