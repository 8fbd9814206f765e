// SPDX-License-Identifier: Apache-2.0
//
// ProducerStateTable: per partition, what each idempotent or transactional producer wrote
// last, after Kafka's ProducerStateManager: its epoch and the sequence range and base offset of
// its last kProducerBatchesKept batches. check() tells whether a batch is new (append it, then
// record()), a duplicate of one of those batches (do not append; answer with the offset it
// got), or out of order. Entries go only with their producer (ProducerRegistry::expire()), so
// the table holds as many entries as producers that wrote the partition and are registered.
// Not thread-safe: the broker's network thread owns it, with its partition.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "protocol/error_code.h"

namespace kgroups::broker {

// Batches remembered per producer and partition for duplicate detection (Kafka's
// ProducerStateEntry.NUM_BATCHES_TO_RETAIN, which is also the most in-flight requests an
// idempotent client may have).
inline constexpr std::size_t kProducerBatchesKept = 5;

// What a producer's batch is to the partition.
struct SequenceCheck {
  // kNone: new (append) or a duplicate (duplicate_base_offset >= 0);
  // kInvalidProducerEpoch: older than the epoch the partition saw last;
  // kOutOfOrderSequenceNumber: not the next sequence of the epoch (or a new epoch not
  // starting at 0).
  protocol::ErrorCode error = protocol::ErrorCode::kNone;
  std::int64_t duplicate_base_offset = -1;  // >= 0: the offset the same batch was stored at
};

class ProducerStateTable {
 public:
  // The last sequence of a batch of `record_count` records from `base_sequence`: sequences
  // wrap from INT32_MAX to 0 as Kafka's DefaultRecordBatch.incrementSequence does.
  static std::int32_t last_sequence(std::int32_t base_sequence, std::int32_t record_count);

  // Checks a batch of producer `producer_id` (>= 0) at `epoch` with sequences
  // [first_sequence, last_sequence], in Kafka's order: a duplicate of a remembered batch of the
  // same epoch first; then an older epoch; then the sequence (the next one after the epoch's
  // last batch, or 0 for a newer epoch). A producer the partition has no entry for may start at
  // any sequence (Kafka since KIP-360: its earlier batches may have been removed).
  [[nodiscard]] SequenceCheck check(std::int64_t producer_id, std::int16_t epoch,
                                    std::int32_t first_sequence, std::int32_t last_sequence) const;

  // Records a batch stored at `base_offset` after check() said it is new. A newer epoch
  // forgets the batches of the older one. Returns true when this created the producer's entry.
  bool record(std::int64_t producer_id, std::int16_t epoch, std::int32_t first_sequence,
              std::int32_t last_sequence, std::int64_t base_offset);

  // The log was truncated to `offset` (a new leader lacked what the old one appended):
  // forgets every remembered batch stored at or after it. Returns the producers that lost
  // batches, whose entries refill_older() may complete from the batches the log still holds
  // (Kafka rebuilds its producer state from the log after a truncation). A producer left
  // without any batch keeps its entry (and epoch) but may go on at any sequence until a
  // batch of it is refilled, as a producer the partition has no entry for may.
  [[nodiscard]] std::vector<std::int64_t> forget_from(std::int64_t offset);

  // Puts back `batch`, a batch of `producer_id` the log holds before every batch its entry
  // remembers (the log's batches are given newest first): it becomes the entry's oldest, and
  // the newest when the entry had none (its epoch and sequence then become the entry's).
  // Returns false when the entry takes no more: it is full, it has no entry, or `batch` is of
  // another epoch than the batches it holds (older epochs are not remembered, as in record()).
  bool refill_older(std::int64_t producer_id, std::int16_t epoch, std::int32_t first_sequence,
                    std::int32_t last_sequence, std::int64_t base_offset);

  // Forgets the producer (it expired or its id was replaced). Returns whether it had an entry.
  bool erase(std::int64_t producer_id) { return entries_.erase(producer_id) > 0; }

  [[nodiscard]] bool contains(std::int64_t producer_id) const {
    return entries_.contains(producer_id);
  }
  [[nodiscard]] std::size_t size() const { return entries_.size(); }

 private:
  struct BatchSequences {
    std::int32_t first_sequence = 0;
    std::int32_t last_sequence = 0;
    std::int64_t base_offset = 0;
  };
  struct Entry {
    std::int16_t epoch = -1;
    std::array<BatchSequences, kProducerBatchesKept> batches{};  // a ring, oldest overwritten
    std::size_t batch_count = 0;                                 // <= kProducerBatchesKept
    std::size_t next_slot = 0;                                   // where the next batch goes
    std::int32_t last_sequence = -1;                             // of the newest batch
    bool sequence_known = true;  // false after truncation dropped the newest batch
  };

  std::unordered_map<std::int64_t, Entry> entries_;
};

}  // namespace kgroups::broker
