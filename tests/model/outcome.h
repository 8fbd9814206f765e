// SPDX-License-Identifier: Apache-2.0
//
// Outcome: what one call did (its value, or the kind of error it threw), for
// comparing kgroups::Topic with the Oracle call by call, plus the helpers that
// copy records out of a Topic and describe outcomes readably for a failure
// report. Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kgroups/kgroups.h"
#include "oracle.h"

namespace kgroups_model {

// Bytes as a readable literal: printable ASCII as is, anything else as \xNN.
inline std::string quote(const std::string& bytes) {
  static const char* const kHex = "0123456789abcdef";
  std::string text = "\"";
  for (const char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f && c != '"' && c != '\\') {
      text += c;
    } else {
      text += "\\x";
      text += kHex[byte >> 4];
      text += kHex[byte & 0xf];
    }
  }
  return text + "\"";
}

inline std::string describe(const OracleRecord& record) {
  return "p" + std::to_string(record.partition) + "@" + std::to_string(record.offset) + " " +
         quote(record.key) + "=" + quote(record.value) + " enc" +
         std::to_string(static_cast<int>(record.key_encoding)) +
         std::to_string(static_cast<int>(record.value_encoding));
}

inline std::string describe(const std::vector<OracleRecord>& records) {
  std::string text = "[";
  for (const OracleRecord& record : records) text += describe(record) + "; ";
  return text + "]";
}

inline std::string describe(const std::vector<int>& partitions) {
  std::string text = "[";
  for (int p : partitions) text += std::to_string(p) + ",";
  return text + "]";
}

inline std::string describe(const std::map<int, std::int64_t>& offsets) {
  std::string text = "{";
  for (const auto& [partition, offset] : offsets) {
    text += std::to_string(partition) + ":" + std::to_string(offset) + ",";
  }
  return text + "}";
}

inline OracleRecord own(const kgroups::Record& record) {
  return {record.partition,          record.offset,       std::string(record.key),
          std::string(record.value), record.key_encoding, record.value_encoding};
}

inline std::vector<OracleRecord> own(const std::vector<kgroups::Record>& records) {
  std::vector<OracleRecord> owned;
  owned.reserve(records.size());
  for (const kgroups::Record& record : records) owned.push_back(own(record));
  return owned;
}

inline std::string describe(std::int64_t number) { return std::to_string(number); }

inline std::string describe(const std::vector<kgroups::Rebalance>& history) {
  std::string text = "[";
  for (const kgroups::Rebalance& rebalance : history) {
    text += "{gen " + std::to_string(rebalance.generation) + " " + rebalance.cause + " " +
            quote(rebalance.consumer) + ":";
    for (const kgroups::MemberRebalance& member : rebalance.members) {
      text += " " + quote(member.id) + " " + describe(member.assignment) + " -" +
              describe(member.revoked) + " +" + describe(member.assigned);
    }
    text += "} ";
  }
  return text + "]";
}

inline std::string describe(const std::pair<int, std::int64_t>& appended) {
  return std::to_string(appended.first) + "@" + std::to_string(appended.second);
}

struct Nothing {
  friend bool operator==(Nothing, Nothing) = default;
};

inline std::string describe(Nothing) { return ""; }

// What a call did: its value, or the kind of error it threw ("" if none). The
// NotAssignedError's partition is part of the error.
template <typename T>
struct Outcome {
  std::string error;
  T value{};

  friend bool operator==(const Outcome&, const Outcome&) = default;
};

template <typename T>
inline std::string describe(const Outcome<T>& outcome) {
  return outcome.error.empty() ? "ok " + describe(outcome.value) : outcome.error;
}

template <typename T, typename Call>
Outcome<T> capture(Call&& call) {
  try {
    return {"", call()};
  } catch (const kgroups::NotAssignedError& error) {
    return {"NotAssignedError(partition " + std::to_string(error.partition()) + ")", {}};
  } catch (const kgroups::NoOffsetError& error) {
    return {"NoOffsetError(partitions " + describe(error.partitions()) + ")", {}};
  } catch (const std::invalid_argument&) {
    return {"invalid_argument", {}};
  } catch (const std::out_of_range&) {
    return {"out_of_range", {}};
  } catch (const std::exception& error) {
    return {std::string("unexpected exception: ") + error.what(), {}};
  }
}

}  // namespace kgroups_model
