// SPDX-License-Identifier: Apache-2.0
//
// Message encoding and the received-message ledger of kgroups_broker_bench.
#include "message_ledger.h"

#include <cstring>

namespace kgroups::bench {

void encode_key(std::int64_t index, unsigned char* key) {
  for (std::size_t i = 0; i < kKeyBytes; ++i) {
    key[i] = static_cast<unsigned char>(static_cast<std::uint64_t>(index) >> (8 * (7 - i)));
  }
}

void encode_value(std::int64_t index, unsigned char* value) {
  encode_key(index, value);
  for (std::size_t i = kKeyBytes; i < kValueBytes; ++i) {
    value[i] = static_cast<unsigned char>(index * 31 + static_cast<std::int64_t>(i));
  }
}

MessageLedger::MessageLedger(std::int64_t messages, int partitions)
    : messages_(messages),
      partitions_(partitions),
      seen_(new std::atomic<std::uint8_t>[static_cast<std::size_t>(messages)]) {
  for (std::int64_t i = 0; i < messages; ++i) seen_[i].store(0, std::memory_order_relaxed);
}

std::string MessageLedger::record(const void* key, std::size_t key_size, const void* value,
                                  std::size_t value_size, int partition) {
  if (key == nullptr || key_size != kKeyBytes) {
    return "key of " + std::to_string(key_size) + " bytes, expected " + std::to_string(kKeyBytes);
  }
  std::int64_t index = 0;
  for (std::size_t i = 0; i < kKeyBytes; ++i) {
    index = (index << 8) | static_cast<const unsigned char*>(key)[i];
  }
  if (index < 0 || index >= messages_) {
    return "key " + std::to_string(index) + " is outside 0.." + std::to_string(messages_ - 1);
  }
  unsigned char expected[kValueBytes];
  encode_value(index, expected);
  if (value == nullptr || value_size != kValueBytes ||
      std::memcmp(value, expected, kValueBytes) != 0) {
    return "message " + std::to_string(index) + " has a wrong value (" +
           std::to_string(value_size) + " bytes)";
  }
  if (partition != static_cast<int>(index % partitions_)) {
    return "message " + std::to_string(index) + " arrived from partition " +
           std::to_string(partition) + ", expected " + std::to_string(index % partitions_);
  }
  if (seen_[index].exchange(1, std::memory_order_relaxed) != 0) {
    duplicates_.fetch_add(1, std::memory_order_relaxed);
    return "duplicate";
  }
  unique_.fetch_add(1, std::memory_order_relaxed);
  return {};
}

std::string MessageLedger::first_missing(int limit) const {
  std::string list;
  int found = 0;
  for (std::int64_t i = 0; i < messages_ && found < limit; ++i) {
    if (seen_[i].load(std::memory_order_relaxed) == 0) {
      list += (found++ == 0 ? "" : ", ") + std::to_string(i);
    }
  }
  return list.empty() ? "none" : list;
}

}  // namespace kgroups::bench
