// SPDX-License-Identifier: Apache-2.0
//
// Broker logging: one line per event on stderr, with a UTC timestamp and a level, e.g.
// `2026-11-30T05:00:00.123Z INFO  127.0.0.1:5555 connected`. A line is written with a single
// write, so concurrent callers never interleave within a line.
//
// Log lines carry text from clients (client ids, group and member ids, topic names), so every
// message is escaped before it is written (escape_log_message()): a client cannot end a line
// and forge the next one, move the cursor or recolour a terminal, and one line stays short.
// Thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace kgroups::broker {

enum class LogLevel { kDebug, kInfo, kWarn, kError };

// Longest message a line shows, escaped, before "… (N more bytes)".
inline constexpr std::size_t kMaxLogMessageBytes = 4096;
// Longest client string quote() shows (bytes of the string, before escaping).
inline constexpr std::size_t kMaxQuotedBytes = 256;

// Lines below `level` are dropped; kInfo by default.
void set_log_level(LogLevel level);

// Whether lines at `level` are written (to skip building messages that would be dropped).
bool log_enabled(LogLevel level);

// Writes `message` as one line on stderr if `level` is enabled, escaped by
// escape_log_message().
void log_line(LogLevel level, std::string_view message);

inline void log_info(std::string_view message) { log_line(LogLevel::kInfo, message); }
inline void log_warn(std::string_view message) { log_line(LogLevel::kWarn, message); }
inline void log_error(std::string_view message) { log_line(LogLevel::kError, message); }

// What log_line() writes for `message`:
// - control characters (bytes below 0x20, and 0x7f) as \n, \r, \t or \xNN (ESC is \x1b);
// - each byte of what is not valid UTF-8, of the C1 controls (U+0080-U+009F), of the line
//   and paragraph separators (U+2028, U+2029) and of the bidirectional-text controls
//   (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) as \xNN;
// - everything else as it is (a backslash too: quote client text with quote());
// - at most kMaxLogMessageBytes of that, then "… (N more bytes)", N counting bytes of
//   `message` left out.
std::string escape_log_message(std::string_view message);

// `text` from a client, for a log message: in double quotes, with `"` and `\` escaped, its
// first kMaxQuotedBytes bytes (cut at a character boundary) followed by "… (N more bytes)"
// when it is longer. Control characters are left to log_line(), which escapes them.
std::string quote(std::string_view text);

}  // namespace kgroups::broker
