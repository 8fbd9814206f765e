// SPDX-License-Identifier: Apache-2.0
//
// Record: one record handed out by Topic::poll, and Encoding, the tag that tells a
// binding whether a key or value was appended as text or as bytes.
//
// A Record views bytes inside the Topic's log. The log never moves or frees a
// record's bytes while the Topic lives, so a Record stays valid (and unchanged)
// until the Topic that returned it is destroyed, whatever other calls happen.
#pragma once

#include <cstdint>
#include <string_view>

namespace kgroups {

// The engine stores keys and values as bytes (Kafka's model). Bindings tag each
// key and value with the host type it came from, so that a str/string comes back
// as a str/string and bytes/Uint8Array as bytes/Uint8Array. C++ callers can ignore it.
enum class Encoding : std::uint8_t {
  kBytes = 0,  // a byte string (C++ std::string, Python bytes, JS Uint8Array)
  kText = 1,   // UTF-8 text (Python str, JS string)
};

struct Record {
  int partition = 0;
  std::int64_t offset = 0;
  std::string_view key;    // views the Topic's log: valid while the Topic lives
  std::string_view value;  // views the Topic's log: valid while the Topic lives
  Encoding key_encoding = Encoding::kBytes;
  Encoding value_encoding = Encoding::kBytes;

  friend bool operator==(const Record&, const Record&) = default;
};

}  // namespace kgroups
