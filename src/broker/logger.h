// SPDX-License-Identifier: Apache-2.0
//
// Broker logging: one line per event on stderr, with a UTC timestamp and a level, e.g.
// `2026-11-30T05:00:00.123Z INFO  127.0.0.1:5555 connected`. A line is written with a single
// write, so concurrent callers never interleave within a line.
// Thread-safe.
#pragma once

#include <string_view>

namespace kgroups::broker {

enum class LogLevel { kDebug, kInfo, kWarn, kError };

// Lines below `level` are dropped; kInfo by default.
void set_log_level(LogLevel level);

// Whether lines at `level` are written (to skip building messages that would be dropped).
bool log_enabled(LogLevel level);

// Writes `message` as one line on stderr if `level` is enabled.
void log_line(LogLevel level, std::string_view message);

inline void log_info(std::string_view message) { log_line(LogLevel::kInfo, message); }
inline void log_warn(std::string_view message) { log_line(LogLevel::kWarn, message); }
inline void log_error(std::string_view message) { log_line(LogLevel::kError, message); }

}  // namespace kgroups::broker
