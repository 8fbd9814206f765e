// SPDX-License-Identifier: Apache-2.0
#include "broker/services/share_session_cache.h"

#include <gtest/gtest.h>

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;

const protocol::Uuid kTopic{1};

TEST(ShareSessionCache, EpochZeroOpensAndEachRequestMustCarryTheNextEpoch) {
  ShareSessionCache cache(10, 100);
  EXPECT_EQ(cache.apply("g", "m", 0, {{kTopic, 0}}, {}).error, ErrorCode::kNone);
  EXPECT_EQ(cache.apply("g", "m", 2, {}, {}).error, ErrorCode::kInvalidShareSessionEpoch);
  const auto next = cache.apply("g", "m", 1, {{kTopic, 1}}, {});
  EXPECT_EQ(next.error, ErrorCode::kNone);
  EXPECT_EQ(next.partitions.size(), 2U);
  const auto forgot = cache.apply("g", "m", 2, {}, {{kTopic, 0}});
  EXPECT_EQ(forgot.partitions, (std::vector<SharePartitionRef>{{kTopic, 1}}));
}

TEST(ShareSessionCache, AnUnknownSessionIsNotFoundAndMinusOneCloses) {
  ShareSessionCache cache(10, 100);
  EXPECT_EQ(cache.apply("g", "m", 1, {}, {}).error, ErrorCode::kShareSessionNotFound);
  cache.apply("g", "m", 0, {{kTopic, 0}}, {});
  const auto closed = cache.apply("g", "m", -1, {}, {});
  EXPECT_TRUE(closed.closed);
  EXPECT_EQ(cache.size(), 0U);
  EXPECT_EQ(cache.apply("g", "m", 1, {}, {}).error, ErrorCode::kShareSessionNotFound);
}

TEST(ShareSessionCache, LimitsRefuseWithoutChangingAnything) {
  ShareSessionCache cache(1, 2);
  cache.apply("g", "a", 0, {{kTopic, 0}}, {});
  EXPECT_EQ(cache.apply("g", "b", 0, {}, {}).error, ErrorCode::kShareSessionLimitReached);
  EXPECT_EQ(cache.apply("g", "a", 1, {{kTopic, 1}, {kTopic, 2}}, {}).error,
            ErrorCode::kShareSessionLimitReached);
  // The refused request did not use the epoch.
  EXPECT_EQ(cache.apply("g", "a", 1, {}, {}).error, ErrorCode::kNone);
  EXPECT_EQ(cache.partitions(), 1U);
}

TEST(ShareSessionCache, ThePartitionBoundCoversEverySessionTogether) {
  ShareSessionCache cache(10, 3);
  cache.apply("g", "a", 0, {{kTopic, 0}, {kTopic, 1}}, {});
  EXPECT_EQ(cache.apply("g", "b", 0, {{kTopic, 0}, {kTopic, 1}}, {}).error,
            ErrorCode::kShareSessionLimitReached);
  EXPECT_EQ(cache.apply("g", "b", 0, {{kTopic, 0}}, {}).error, ErrorCode::kNone);
  cache.apply("g", "a", -1, {}, {});  // closing gives its partitions back
  EXPECT_EQ(cache.partitions(), 1U);
  EXPECT_EQ(cache.apply("g", "c", 0, {{kTopic, 0}, {kTopic, 1}}, {}).error, ErrorCode::kNone);
}

TEST(ShareSessionCache, SessionsOfMembersGoneMakeRoom) {
  ShareSessionCache cache(2, 100);
  cache.apply("g", "gone", 0, {{kTopic, 0}}, {});
  cache.apply("g", "alive", 0, {{kTopic, 0}}, {});
  EXPECT_TRUE(cache.full());
  EXPECT_EQ(
      cache.forget_if([](std::string_view, std::string_view member) { return member == "gone"; }),
      1U);
  EXPECT_EQ(cache.apply("g", "new", 0, {}, {}).error, ErrorCode::kNone);
  EXPECT_EQ(cache.apply("g", "gone", 1, {}, {}).error, ErrorCode::kShareSessionNotFound);
}

}  // namespace
}  // namespace kgroups::broker
