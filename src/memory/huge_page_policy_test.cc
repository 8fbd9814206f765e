// SPDX-License-Identifier: Apache-2.0
#include "memory/huge_page_policy.h"

#include <gtest/gtest.h>

#include <chrono>

namespace kgroups::memory {
namespace {

using std::chrono::microseconds;
using std::chrono::milliseconds;

constexpr microseconds kSmallRegion{250};  // 4 KiB pages of a 2 MiB region, typical here

// Records 4 KiB regions until the policy asks for a huge one; how many it took.
int small_regions_until_a_try(HugePagePolicy& policy, int limit = 100000) {
  int regions = 0;
  while (!policy.next_region_huge() && regions < limit) {
    policy.record(false, kSmallRegion);
    ++regions;
  }
  return regions;
}

TEST(HugePagePolicy, StartsWithFourKiBPagesUntilTheirCostIsKnown) {
  HugePagePolicy policy;
  EXPECT_FALSE(policy.next_region_huge());
  policy.record(false, kSmallRegion);
  EXPECT_EQ(policy.small_region_cost(), kSmallRegion);
  EXPECT_FALSE(policy.next_region_huge());
}

TEST(HugePagePolicy, FirstTriesAHugePageAfterSixteenRegionsOfFourKiBPages) {
  HugePagePolicy policy;
  int regions = 0;
  while (!policy.next_region_huge()) {
    policy.record(false, microseconds{100});
    ++regions;
  }
  EXPECT_EQ(regions, HugePagePolicy::kFirstProbeAfterRegions);
}

TEST(HugePagePolicy, FirstTriesSoonerWhereFourKiBRegionsAreDear) {
  HugePagePolicy policy;  // e.g. a hypervisor faulting each 4 KiB page at its first write
  int regions = 0;
  while (!policy.next_region_huge()) {
    policy.record(false, microseconds{3500});
    ++regions;
  }
  EXPECT_EQ(regions, 2);  // 7 ms >= 4 ms
}

TEST(HugePagePolicy, ACheapHugePageKeepsHugePagesOn) {
  HugePagePolicy policy;
  small_regions_until_a_try(policy);
  policy.record(true, microseconds{120});
  EXPECT_TRUE(policy.huge_pages_on());
  for (int region = 0; region < 50; ++region) {
    ASSERT_TRUE(policy.next_region_huge());
    policy.record(true, microseconds{120});
  }
  EXPECT_EQ(policy.counts().huge_regions, 51U);
  EXPECT_EQ(policy.counts().dear_huge_regions, 0U);
}

TEST(HugePagePolicy, ADearHugePageTurnsThemOffForEightTimesItsCost) {
  HugePagePolicy policy;
  small_regions_until_a_try(policy);
  const milliseconds dear{7};  // a huge page the kernel had to compact memory for
  policy.record(true, dear);
  EXPECT_FALSE(policy.huge_pages_on());
  EXPECT_EQ(policy.counts().dear_huge_regions, 1U);
  // 8 x 7 ms of 250 us regions before the next try: 224 regions.
  EXPECT_EQ(small_regions_until_a_try(policy),
            HugePagePolicy::kProbeBudgetFactor * dear / kSmallRegion);
}

TEST(HugePagePolicy, EachDearTryDoublesTheWaitForTheNext) {
  HugePagePolicy policy;
  small_regions_until_a_try(policy);
  policy.record(true, milliseconds{7});
  const int first_wait = small_regions_until_a_try(policy);
  policy.record(true, milliseconds{7});
  const int second_wait = small_regions_until_a_try(policy);
  policy.record(true, milliseconds{7});
  const int third_wait = small_regions_until_a_try(policy);
  EXPECT_EQ(second_wait, 2 * first_wait);
  EXPECT_EQ(third_wait, 4 * first_wait);
}

TEST(HugePagePolicy, TriesCostAtMostAnEighthOfThePopulationTimeAfterTheFirst) {
  HugePagePolicy policy;
  microseconds small_time{0};
  microseconds try_time{0};
  const microseconds dear{7000};
  for (int region = 0; region < 20000; ++region) {
    if (policy.next_region_huge()) {
      policy.record(true, dear);
      if (region > HugePagePolicy::kFirstProbeAfterRegions) try_time += dear;
    } else {
      policy.record(false, kSmallRegion);
      small_time += kSmallRegion;
    }
  }
  EXPECT_GT(policy.counts().dear_huge_regions, 3U);
  EXPECT_LE(try_time * HugePagePolicy::kProbeBudgetFactor, small_time);
}

TEST(HugePagePolicy, HugePagesTurnOffWhenTheyBecomeDearAndBackOnWhenCheapAgain) {
  HugePagePolicy policy;
  small_regions_until_a_try(policy);
  policy.record(true, microseconds{100});
  int dear_regions = 0;
  while (policy.next_region_huge() && dear_regions < 10) {
    policy.record(true, milliseconds{5});  // the kernel ran out of free 2 MiB pages
    ++dear_regions;
  }
  EXPECT_FALSE(policy.huge_pages_on());
  EXPECT_EQ(dear_regions, 1);  // (3 x 100 us + 5 ms) / 4 is dear already
  small_regions_until_a_try(policy);
  policy.record(true, microseconds{100});  // a try is judged on its own cost
  EXPECT_TRUE(policy.huge_pages_on());
}

TEST(HugePagePolicy, OneSlowHugeRegionAmongCheapOnesKeepsThemOn) {
  HugePagePolicy policy;
  small_regions_until_a_try(policy);
  for (int region = 0; region < 8; ++region) policy.record(true, microseconds{100});
  policy.record(true, microseconds{1500});  // one preempted population: smoothed to 450 us
  EXPECT_TRUE(policy.huge_pages_on());
  EXPECT_EQ(policy.counts().dear_huge_regions, 0U);
}

TEST(HugePagePolicy, AHugePageUpToTwiceAFourKiBRegionCountsAsCheap) {
  HugePagePolicy cheap;
  small_regions_until_a_try(cheap);
  cheap.record(true, kSmallRegion * 2);
  EXPECT_TRUE(cheap.huge_pages_on());
  HugePagePolicy dear;
  small_regions_until_a_try(dear);
  dear.record(true, kSmallRegion * 2 + microseconds{1});
  EXPECT_FALSE(dear.huge_pages_on());
}

}  // namespace
}  // namespace kgroups::memory
