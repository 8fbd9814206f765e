// SPDX-License-Identifier: Apache-2.0
//
// The process's open-file limit (RLIMIT_NOFILE), which bounds how many connections kgroupsd
// can hold: every connection is a file descriptor.
// Thread-safe: getrlimit/setrlimit act on the whole process.
#pragma once

#include <cstdint>

namespace kgroups::broker {

// The soft open-file limit; INT64_MAX when unlimited.
std::int64_t open_file_limit();

// Raises the soft open-file limit to the hard one (as far as the system allows) and returns
// the soft limit in force afterwards, as open_file_limit() does.
std::int64_t raise_open_file_limit();

}  // namespace kgroups::broker
