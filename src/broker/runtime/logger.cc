// SPDX-License-Identifier: Apache-2.0
#include "broker/runtime/logger.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>

namespace kgroups::broker {
namespace {

std::atomic<LogLevel> g_level{LogLevel::kInfo};

std::string_view level_name(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug:
      return "DEBUG";
    case LogLevel::kInfo:
      return "INFO ";
    case LogLevel::kWarn:
      return "WARN ";
    case LogLevel::kError:
      return "ERROR";
  }
  return "?    ";
}

constexpr std::string_view kEllipsis = "\xe2\x80\xa6";  // "…"

bool is_continuation(unsigned char byte) { return (byte & 0xC0) == 0x80; }

// The length (2 to 4) of the well-formed UTF-8 sequence of a non-ASCII character at the start
// of `text`, or 0 when it is not one (overlong forms, surrogates and code points above
// U+10FFFF are not well formed).
std::size_t utf8_sequence_length(std::string_view text) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  std::size_t length = 0;
  unsigned char second_min = 0x80;
  unsigned char second_max = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) second_min = 0xA0;
    if (lead == 0xED) second_max = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) second_min = 0x90;
    if (lead == 0xF4) second_max = 0x8F;
  } else {
    return 0;
  }
  if (text.size() < length || byte(1) < second_min || byte(1) > second_max) return 0;
  for (std::size_t i = 2; i < length; ++i) {
    if (!is_continuation(byte(i))) return 0;
  }
  return length;
}

char32_t decode_utf8(std::string_view sequence) {
  const auto byte = [&](std::size_t i) { return static_cast<char32_t>(sequence[i]) & 0xFF; };
  switch (sequence.size()) {
    case 2:
      return ((byte(0) & 0x1F) << 6) | (byte(1) & 0x3F);
    case 3:
      return ((byte(0) & 0x0F) << 12) | ((byte(1) & 0x3F) << 6) | (byte(2) & 0x3F);
    default:
      return ((byte(0) & 0x07) << 18) | ((byte(1) & 0x3F) << 12) | ((byte(2) & 0x3F) << 6) |
             (byte(3) & 0x3F);
  }
}

// Characters that are valid but change how a line reads: C1 controls, line and paragraph
// separators, bidirectional-text controls.
bool is_deceptive(char32_t code_point) {
  return (code_point >= 0x80 && code_point <= 0x9F) || code_point == 0x061C ||
         code_point == 0x200E || code_point == 0x200F ||
         (code_point >= 0x2028 && code_point <= 0x202E) ||
         (code_point >= 0x2066 && code_point <= 0x2069);
}

void append_hex(std::string& out, std::string_view bytes) {
  constexpr std::string_view kHex = "0123456789abcdef";
  for (const char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    out += "\\x";
    out += kHex[byte >> 4];
    out += kHex[byte & 0x0F];
  }
}

// Appends the escaped form of the character at the start of `text` to `piece`; returns how
// many bytes of `text` it stands for.
std::size_t escape_one(std::string_view text, std::string& piece) {
  const auto lead = static_cast<unsigned char>(text[0]);
  if (lead < 0x80) {
    if (lead >= 0x20 && lead != 0x7F) {
      piece += text[0];
    } else if (lead == '\n') {
      piece += "\\n";
    } else if (lead == '\r') {
      piece += "\\r";
    } else if (lead == '\t') {
      piece += "\\t";
    } else {
      append_hex(piece, text.substr(0, 1));
    }
    return 1;
  }
  const std::size_t length = utf8_sequence_length(text);
  if (length == 0) {
    append_hex(piece, text.substr(0, 1));
    return 1;
  }
  const std::string_view sequence = text.substr(0, length);
  if (is_deceptive(decode_utf8(sequence))) {
    append_hex(piece, sequence);
  } else {
    piece += sequence;
  }
  return length;
}

// Appends the escaped `message` to `out` (see escape_log_message()).
void append_escaped(std::string& out, std::string_view message) {
  const std::size_t start = out.size();
  std::string piece;
  std::size_t position = 0;
  while (position < message.size()) {
    const auto byte = static_cast<unsigned char>(message[position]);
    if (byte >= 0x20 && byte < 0x7F) {  // printable ASCII, the common case
      if (out.size() - start + 1 > kMaxLogMessageBytes) break;
      out += message[position];
      ++position;
      continue;
    }
    piece.clear();
    const std::size_t consumed = escape_one(message.substr(position), piece);
    if (out.size() - start + piece.size() > kMaxLogMessageBytes) break;
    out += piece;
    position += consumed;
  }
  if (position < message.size()) {
    out += kEllipsis;
    out += " (" + std::to_string(message.size() - position) + " more bytes)";
  }
}

}  // namespace

void set_log_level(LogLevel level) { g_level.store(level, std::memory_order_relaxed); }

bool log_enabled(LogLevel level) { return level >= g_level.load(std::memory_order_relaxed); }

std::string escape_log_message(std::string_view message) {
  std::string out;
  append_escaped(out, message);
  return out;
}

std::string quote(std::string_view text) {
  std::size_t shown = std::min(text.size(), kMaxQuotedBytes);
  // Cut before a character rather than inside it (a UTF-8 sequence is at most 4 bytes).
  for (int step = 0; step < 3 && shown > 0 && shown < text.size() &&
                     is_continuation(static_cast<unsigned char>(text[shown]));
       ++step) {
    --shown;
  }
  std::string out = "\"";
  for (const char c : text.substr(0, shown)) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += '"';
  if (shown < text.size()) {
    out += kEllipsis;
    out += " (" + std::to_string(text.size() - shown) + " more bytes)";
  }
  return out;
}

void log_line(LogLevel level, std::string_view message) {
  if (!log_enabled(level)) return;
  const auto now = std::chrono::system_clock::now();
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  const auto millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char stamp[40];
  const int stamp_size = std::snprintf(stamp, sizeof stamp, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ ",
                                       utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday, utc.tm_hour,
                                       utc.tm_min, utc.tm_sec, static_cast<int>(millis));
  std::string line(stamp, static_cast<std::size_t>(stamp_size));
  line += level_name(level);
  line += ' ';
  append_escaped(line, message);
  line += '\n';
  // One write(2) per line keeps lines whole when several threads or processes share stderr.
  const char* data = line.data();
  std::size_t left = line.size();
  while (left > 0) {
    const ssize_t written = ::write(STDERR_FILENO, data, left);
    if (written <= 0) return;
    data += written;
    left -= static_cast<std::size_t>(written);
  }
}

}  // namespace kgroups::broker
