// SPDX-License-Identifier: Apache-2.0
#include "broker/net/open_file_limit.h"

#include <sys/resource.h>

#include <limits>

namespace kgroups::broker {
namespace {

std::int64_t to_count(rlim_t value) {
  if (value == RLIM_INFINITY ||
      value > static_cast<rlim_t>(std::numeric_limits<std::int64_t>::max())) {
    return std::numeric_limits<std::int64_t>::max();
  }
  return static_cast<std::int64_t>(value);
}

}  // namespace

std::int64_t open_file_limit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return std::numeric_limits<std::int64_t>::max();
  return to_count(limit.rlim_cur);
}

std::int64_t raise_open_file_limit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    rlimit raised = limit;
    raised.rlim_cur = limit.rlim_max;
    // On failure the old limit stays, and open_file_limit() reports it.
    (void)::setrlimit(RLIMIT_NOFILE, &raised);
  }
  return open_file_limit();
}

}  // namespace kgroups::broker
