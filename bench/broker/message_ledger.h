// SPDX-License-Identifier: Apache-2.0
//
// The benchmark's messages and the ledger that checks them. Message i has an
// 8-byte big-endian key i, a 100-byte value derived from i, and partition
// i % partitions. MessageLedger records which messages arrived, so a phase can
// prove that nothing was lost, duplicated or altered.
// MessageLedger::record is safe to call from several threads at once; the
// other methods are not meant to race with it.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace kgroups::bench {

inline constexpr std::size_t kKeyBytes = 8;
inline constexpr std::size_t kValueBytes = 100;

// Writes message `index`'s key (kKeyBytes) and value (kValueBytes).
void encode_key(std::int64_t index, unsigned char* key);
void encode_value(std::int64_t index, unsigned char* value);

class MessageLedger {
 public:
  MessageLedger(std::int64_t messages, int partitions);

  // Checks one received message against what message i must look like, then
  // marks it as seen. Returns the empty string for a first sighting, "duplicate"
  // for a repeat, or a description of what is wrong with the message.
  std::string record(const void* key, std::size_t key_size, const void* value,
                     std::size_t value_size, int partition);

  [[nodiscard]] std::int64_t unique() const { return unique_.load(std::memory_order_relaxed); }
  [[nodiscard]] std::int64_t duplicates() const {
    return duplicates_.load(std::memory_order_relaxed);
  }
  [[nodiscard]] std::int64_t messages() const { return messages_; }

  // Indexes of up to `limit` messages never recorded, for an error message.
  [[nodiscard]] std::string first_missing(int limit) const;

 private:
  std::int64_t messages_;
  int partitions_;
  std::unique_ptr<std::atomic<std::uint8_t>[]> seen_;  // one flag per message index
  std::atomic<std::int64_t> unique_{0};
  std::atomic<std::int64_t> duplicates_{0};
};

}  // namespace kgroups::bench
