// SPDX-License-Identifier: Apache-2.0
#include "broker/storage/producer_state.h"

#include <limits>

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;

constexpr std::int32_t kMaxSequence = std::numeric_limits<std::int32_t>::max();

// Whether `next` follows `last` (wrapping from INT32_MAX to 0).
bool in_sequence(std::int32_t last, std::int32_t next) {
  return static_cast<std::int64_t>(next) == static_cast<std::int64_t>(last) + 1 ||
         (next == 0 && last == kMaxSequence);
}

}  // namespace

std::int32_t ProducerStateTable::last_sequence(std::int32_t base_sequence,
                                               std::int32_t record_count) {
  const std::int32_t delta = record_count - 1;
  if (base_sequence > kMaxSequence - delta) return delta - (kMaxSequence - base_sequence) - 1;
  return base_sequence + delta;
}

SequenceCheck ProducerStateTable::check(std::int64_t producer_id, std::int16_t epoch,
                                        std::int32_t first_sequence,
                                        std::int32_t last_sequence) const {
  const auto found = entries_.find(producer_id);
  if (found == entries_.end()) return {};
  const Entry& entry = found->second;
  if (epoch == entry.epoch) {
    for (std::size_t i = 0; i < entry.batch_count; ++i) {
      const BatchSequences& batch = entry.batches[i];
      if (batch.first_sequence == first_sequence && batch.last_sequence == last_sequence) {
        return {.duplicate_base_offset = batch.base_offset};
      }
    }
  }
  if (epoch < entry.epoch) return {.error = ErrorCode::kInvalidProducerEpoch};
  if (epoch != entry.epoch) {
    if (first_sequence != 0) return {.error = ErrorCode::kOutOfOrderSequenceNumber};
    return {};
  }
  if (entry.sequence_known && !in_sequence(entry.last_sequence, first_sequence)) {
    return {.error = ErrorCode::kOutOfOrderSequenceNumber};
  }
  return {};
}

bool ProducerStateTable::record(std::int64_t producer_id, std::int16_t epoch,
                                std::int32_t first_sequence, std::int32_t last_sequence,
                                std::int64_t base_offset) {
  const auto [found, created] = entries_.try_emplace(producer_id);
  Entry& entry = found->second;
  if (entry.epoch != epoch) {
    entry.epoch = epoch;
    entry.batch_count = 0;
    entry.next_slot = 0;
  }
  entry.batches[entry.next_slot] = {first_sequence, last_sequence, base_offset};
  entry.next_slot = (entry.next_slot + 1) % kProducerBatchesKept;
  if (entry.batch_count < kProducerBatchesKept) ++entry.batch_count;
  entry.last_sequence = last_sequence;
  entry.sequence_known = true;
  return created;
}

std::vector<std::int64_t> ProducerStateTable::forget_from(std::int64_t offset) {
  std::vector<std::int64_t> lacking;
  for (auto& [producer_id, entry] : entries_) {
    // Oldest first: the ring's live slots end just before next_slot.
    std::array<BatchSequences, kProducerBatchesKept> kept{};
    std::size_t kept_count = 0;
    const std::size_t oldest =
        (entry.next_slot + kProducerBatchesKept - entry.batch_count) % kProducerBatchesKept;
    for (std::size_t i = 0; i < entry.batch_count; ++i) {
      const BatchSequences& batch = entry.batches[(oldest + i) % kProducerBatchesKept];
      if (batch.base_offset < offset) kept[kept_count++] = batch;
    }
    if (kept_count == entry.batch_count) continue;
    entry.batches = kept;
    entry.batch_count = kept_count;
    entry.next_slot = kept_count % kProducerBatchesKept;
    if (kept_count > 0) {
      entry.last_sequence = kept[kept_count - 1].last_sequence;
    } else {
      entry.sequence_known = false;
    }
    lacking.push_back(producer_id);
  }
  return lacking;
}

bool ProducerStateTable::refill_older(std::int64_t producer_id, std::int16_t epoch,
                                      std::int32_t first_sequence, std::int32_t last_sequence,
                                      std::int64_t base_offset) {
  const auto found = entries_.find(producer_id);
  if (found == entries_.end()) return false;
  Entry& entry = found->second;
  if (entry.batch_count == kProducerBatchesKept) return false;
  if (entry.batch_count == 0) {
    entry.epoch = epoch;
    entry.last_sequence = last_sequence;
    entry.sequence_known = true;
  } else if (epoch != entry.epoch) {
    return false;
  } else if (base_offset >= entry.batches[0].base_offset) {
    return true;  // remembered already (the log is read from its end): look further back
  }
  // forget_from() left the batches in slots 0..batch_count-1, oldest first; this one goes
  // before them.
  for (std::size_t i = entry.batch_count; i > 0; --i) entry.batches[i] = entry.batches[i - 1];
  entry.batches[0] = {first_sequence, last_sequence, base_offset};
  ++entry.batch_count;
  entry.next_slot = entry.batch_count % kProducerBatchesKept;
  return entry.batch_count < kProducerBatchesKept;
}

}  // namespace kgroups::broker
