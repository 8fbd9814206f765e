// SPDX-License-Identifier: Apache-2.0
#include "memory/huge_page_policy.h"

#include <algorithm>

namespace kgroups::memory {

bool HugePagePolicy::next_region_huge() const noexcept {
  if (huge_on_) return true;
  if (next_try_after_.count() == 0) {  // no try yet
    return counts_.small_regions >= static_cast<std::uint64_t>(kFirstProbeAfterRegions) ||
           small_since_try_ >= kFirstProbeAfterTime;
  }
  return small_since_try_ >= next_try_after_;
}

void HugePagePolicy::record(bool huge, Nanoseconds cost) noexcept {
  if (!huge) {
    ++counts_.small_regions;
    // Smoothed over about four regions, so one preempted population does not decide.
    small_cost_ = small_cost_.count() == 0 ? cost : (3 * small_cost_ + cost) / 4;
    small_since_try_ += cost;
    return;
  }
  ++counts_.huge_regions;
  // A try is judged on its own cost; while huge pages are on, on their smoothed cost, so
  // that one slow population (a preemption, a compaction) does not turn them off.
  huge_cost_ = huge_on_ ? (3 * huge_cost_ + cost) / 4 : cost;
  const bool cheap =
      huge_cost_.count() <=
      static_cast<std::int64_t>(static_cast<double>(small_cost_.count()) * kCheapFactor);
  if (cheap) {
    huge_on_ = true;
    next_try_after_ = Nanoseconds{0};
    return;
  }
  ++counts_.dear_huge_regions;
  huge_on_ = false;
  small_since_try_ = Nanoseconds{0};
  next_try_after_ = std::max(huge_cost_ * kProbeBudgetFactor, next_try_after_ * 2);
}

}  // namespace kgroups::memory
