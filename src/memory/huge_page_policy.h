// SPDX-License-Identifier: Apache-2.0
//
// HugePagePolicy: decides, region by region, whether the chunk supply faults in
// its next 2 MiB region as one transparent huge page or as 4 KiB pages, from
// what the populations before cost in this process.
//
// Why: a huge page is the cheapest way to fault in 2 MiB once the kernel has a
// free one, but making one may mean compacting memory, or, in a virtual machine
// whose host backs guest memory lazily, host faults for 2 MiB of guest memory
// never used before: then it costs 10-40x more (docs/PERFORMANCE.md, "Issue
// 32"). 4 KiB pages populated with MADV_POPULATE_WRITE are never dearer than
// the first-touch faults a plain program pays, but where a hypervisor shadows
// the guest's page tables their first writes still take a hidden fault each
// (several times the population's own cost here); so each region's time
// includes a write to every page.
//
// The rule: regions start as 4 KiB pages; each population is timed. After
// kFirstProbeAfterRegions of them or kFirstProbeAfterTime of their
// population, whichever comes first (where 4 KiB pages are dear, one try is
// soon worth it), and later once the 4 KiB populations since the last try add
// up to kProbeBudgetFactor times the cost of that try, one region tries a huge
// page. A try that costs at most kCheapFactor times a 4 KiB region (smoothed)
// turns huge pages on; from then on every region is huge and timed, and once
// their smoothed cost is dearer than that they are off until the budget is
// spent again. A try that finds them dear doubles the budget of the next. So
// tries cost at most about 1 / kProbeBudgetFactor of the time spent
// populating, whatever the machine.
//
// Not thread-safe: the chunk supply calls it under its lock.
#pragma once

#include <chrono>
#include <cstdint>

namespace kgroups::memory {

class HugePagePolicy {
 public:
  using Nanoseconds = std::chrono::nanoseconds;

  static constexpr int kFirstProbeAfterRegions = 16;
  static constexpr Nanoseconds kFirstProbeAfterTime = std::chrono::milliseconds{4};
  static constexpr std::int64_t kProbeBudgetFactor = 8;
  static constexpr double kCheapFactor = 2.0;

  // Whether the next region should try a huge page.
  [[nodiscard]] bool next_region_huge() const noexcept;

  // What faulting in one region cost, and whether it was asked as a huge page.
  void record(bool huge, Nanoseconds cost) noexcept;

  // Whether the latest huge region was cheap (tries aside, regions are huge).
  [[nodiscard]] bool huge_pages_on() const noexcept { return huge_on_; }

  // What a 4 KiB-page region costs lately (zero before the first).
  [[nodiscard]] Nanoseconds small_region_cost() const noexcept { return small_cost_; }

  struct Counts {
    std::uint64_t small_regions = 0;
    std::uint64_t huge_regions = 0;       // tries included
    std::uint64_t dear_huge_regions = 0;  // those that turned huge pages off
  };
  [[nodiscard]] const Counts& counts() const noexcept { return counts_; }

 private:
  bool huge_on_ = false;
  Nanoseconds small_cost_{0};       // smoothed, per region
  Nanoseconds huge_cost_{0};        // the latest try, or smoothed while huge pages are on
  Nanoseconds small_since_try_{0};  // 4 KiB population time since the last try
  Nanoseconds next_try_after_{0};   // zero: no try yet
  Counts counts_;
};

}  // namespace kgroups::memory
