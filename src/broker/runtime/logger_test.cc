// SPDX-License-Identifier: Apache-2.0
#include "broker/runtime/logger.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

namespace kgroups::broker {
namespace {

// Builds a string from byte values (literals holding bidirectional controls would trip the
// misleading-bidirectional lint).
std::string bytes(std::initializer_list<unsigned char> values) {
  std::string out;
  for (const unsigned char value : values) out += static_cast<char>(value);
  return out;
}

TEST(EscapeLogMessage, KeepsPrintableTextAndUtf8AsTheyAre) {
  EXPECT_EQ(escape_log_message("127.0.0.1:5555 connected"), "127.0.0.1:5555 connected");
  EXPECT_EQ(escape_log_message("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 back\\slash"),
            "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 back\\slash");
}

TEST(EscapeLogMessage, EscapesNewlinesSoNoLineCanBeForged) {
  const std::string forged =
      escape_log_message("client\n2026-11-30T05:00:00.000Z ERROR forged\r\tend");
  EXPECT_EQ(forged, "client\\n2026-11-30T05:00:00.000Z ERROR forged\\r\\tend");
  EXPECT_EQ(forged.find('\n'), std::string::npos);
}

TEST(EscapeLogMessage, EscapesTerminalEscapeSequencesAndOtherControls) {
  EXPECT_EQ(escape_log_message("\x1b[31mred\x1b[0m"), "\\x1b[31mred\\x1b[0m");
  EXPECT_EQ(escape_log_message(std::string("a\0b\x07\x7f", 5)), "a\\x00b\\x07\\x7f");
}

TEST(EscapeLogMessage, EscapesEachByteOfInvalidUtf8) {
  EXPECT_EQ(escape_log_message("\xff\xfe ok"), "\\xff\\xfe ok");
  EXPECT_EQ(escape_log_message("\xc3"), "\\xc3");                             // truncated sequence
  EXPECT_EQ(escape_log_message("\xc0\xaf"), "\\xc0\\xaf");                    // overlong "/"
  EXPECT_EQ(escape_log_message("\xed\xa0\x80"), "\\xed\\xa0\\x80");           // a surrogate
  EXPECT_EQ(escape_log_message("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // > U+10FFFF
  EXPECT_EQ(escape_log_message("\x80"), "\\x80");  // a lone continuation byte
}

TEST(EscapeLogMessage, EscapesC1ControlsSeparatorsAndBidiControls) {
  EXPECT_EQ(escape_log_message("a\xc2\x85z"), "a\\xc2\\x85z");                  // NEL
  EXPECT_EQ(escape_log_message(bytes({0xc2, 0x9b}) + "31m"), "\\xc2\\x9b31m");  // CSI
  EXPECT_EQ(escape_log_message(bytes({0xe2, 0x80, 0xa8})), "\\xe2\\x80\\xa8");  // line separator
  // Right-to-left override, left-to-right isolate.
  EXPECT_EQ(escape_log_message(bytes({0xe2, 0x80, 0xae})), "\\xe2\\x80\\xae");
  EXPECT_EQ(escape_log_message(bytes({0xe2, 0x81, 0xa6})), "\\xe2\\x81\\xa6");
  EXPECT_EQ(escape_log_message("\xc2\xa0"), "\xc2\xa0");  // no-break space is fine
}

TEST(EscapeLogMessage, CutsLongMessagesAndSaysHowMuchIsLeftOut) {
  const std::string long_message(10000, 'x');
  const std::string escaped = escape_log_message(long_message);
  EXPECT_EQ(escaped, std::string(kMaxLogMessageBytes, 'x') + "\xe2\x80\xa6 (" +
                         std::to_string(10000 - kMaxLogMessageBytes) + " more bytes)");
}

TEST(EscapeLogMessage, NeverCutsInsideAnEscape) {
  // Each ESC takes four bytes escaped; the cap falls inside the last one that would fit.
  const std::string message = std::string(kMaxLogMessageBytes - 2, 'x') + "\x1b\x1b";
  const std::string escaped = escape_log_message(message);
  EXPECT_EQ(escaped, std::string(kMaxLogMessageBytes - 2, 'x') + "\xe2\x80\xa6 (2 more bytes)");
}

TEST(Quote, QuotesAndEscapesQuotesAndBackslashes) {
  EXPECT_EQ(quote("rdkafka"), "\"rdkafka\"");
  EXPECT_EQ(quote("say \"hi\" \\o/"), "\"say \\\"hi\\\" \\\\o/\"");
  EXPECT_EQ(quote(""), "\"\"");
}

TEST(Quote, LeavesControlCharactersToLogLineWhichEscapesThem) {
  EXPECT_EQ(escape_log_message("client " + quote("a\nb\x1b[31m")), "client \"a\\nb\\x1b[31m\"");
}

TEST(Quote, CutsLongStringsAtACharacterBoundary) {
  const std::string text = std::string(kMaxQuotedBytes - 1, 'a') + "\xc3\xa9" + "tail";
  EXPECT_EQ(quote(text),
            "\"" + std::string(kMaxQuotedBytes - 1, 'a') + "\"\xe2\x80\xa6 (6 more bytes)");
}

}  // namespace
}  // namespace kgroups::broker
