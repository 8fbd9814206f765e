// SPDX-License-Identifier: Apache-2.0
//
// The machine-state experiment behind the chunk supply's page policy (issue 32,
// docs/PERFORMANCE.md, "Issue 32"): how long one fresh process takes to fault in MiB
// MiB of anonymous memory in one of three ways, and then to write to every page of it,
// timed from the first call:
//   huge      madvise(MADV_HUGEPAGE), then MADV_POPULATE_WRITE per 2 MiB region (what the
//             chunk supply does while huge pages are cheap, kPopulateHugePages)
//   populate  MADV_NOHUGEPAGE, then one MADV_POPULATE_WRITE (4 KiB pages, kPopulate)
//   touch     MADV_NOHUGEPAGE, then a write to every 4 KiB page (first-touch faults, what a
//             std::vector<std::string> pays)
// The writes after `populate` are not free where a hypervisor shadows the guest's page
// tables: it maps each 4 KiB page into its own at the first access.
// Run each mode in a new process, several times in turn: the first huge-page population
// after the machine started (or after other processes fragmented its memory) may cost far
// more than later ones, which find free huge pages.
//   for run in 1 2 3; do for mode in huge populate touch; do
//     build/dev/bench/kgroups_page_population_experiment $mode 200; done; done
#include <sys/mman.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14
#endif

namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kPage = std::size_t{4} << 10;

int usage() {
  std::fputs("usage: kgroups_page_population_experiment huge|populate|touch [MiB (200)]\n", stderr);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) return usage();
  const std::string_view mode = argv[1];
  if (mode != "huge" && mode != "populate" && mode != "touch") return usage();
  const long mib = argc == 3 ? std::strtol(argv[2], nullptr, 10) : 200;
  if (mib <= 0 || mib > 65536) return usage();
  const std::size_t bytes = static_cast<std::size_t>(mib) << 20;
  void* mapped =
      mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) {
    std::perror("mmap");
    return 1;
  }
  // 2 MiB-aligned, as the chunk supply's regions.
  auto* data = reinterpret_cast<std::uint8_t*>(  // NOLINT(performance-no-int-to-ptr)
      (reinterpret_cast<std::uintptr_t>(mapped) + kHugePage - 1) & ~(kHugePage - 1));
  bool populated = true;
  const auto started = std::chrono::steady_clock::now();
  if (mode == "huge") {
    (void)madvise(data, bytes, MADV_HUGEPAGE);
    for (std::size_t at = 0; at < bytes; at += kHugePage) {
      populated = populated && madvise(data + at, kHugePage, MADV_POPULATE_WRITE) == 0;
    }
  } else if (mode == "populate") {
    (void)madvise(data, bytes, MADV_NOHUGEPAGE);
    populated = madvise(data, bytes, MADV_POPULATE_WRITE) == 0;
  } else {
    (void)madvise(data, bytes, MADV_NOHUGEPAGE);
    for (std::size_t at = 0; at < bytes; at += kPage) data[at] = 1;
  }
  const auto faulted_in = std::chrono::steady_clock::now();
  // Then a write to every page, as the chunk supply's user makes: under shadow paging a
  // hypervisor maps a populated 4 KiB page into its own tables only at its first access.
  for (std::size_t at = 0; at < bytes; at += kPage) data[at] = 2;
  const auto written = std::chrono::steady_clock::now();
  if (!populated) {
    std::fputs("MADV_POPULATE_WRITE failed (a kernel before 5.14?)\n", stderr);
    return 1;
  }
  const auto ms = [](auto duration) {
    return std::chrono::duration<double, std::milli>(duration).count();
  };
  std::printf("%-8s %ld MiB: %.1f ms (fault in %.1f ms, then first writes %.1f ms)\n", argv[1], mib,
              ms(written - started), ms(faulted_in - started), ms(written - faulted_in));
  return 0;
}
