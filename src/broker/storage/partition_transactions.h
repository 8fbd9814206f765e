// SPDX-License-Identifier: Apache-2.0
//
// PartitionTransactions: the transaction index of one partition, which both sides of
// transactions share. The write side reports each transactional batch it appends and each
// commit or abort marker it writes; the read side asks for the last stable offset (LSO: the
// first offset of the oldest open transaction, else the high watermark) and for the aborted
// transactions a read_committed fetch must list (Fetch's aborted_transactions).
//
// Invariants: open transactions are kept in the order they opened, so their first offsets
// only grow and the oldest is first; aborted transactions are kept in marker order, so their
// last offsets (the abort markers) only grow. An open transaction's first offset is never
// below the log start offset (on_log_start_moved raises it), so it bounds the LSO even after
// retention dropped its first batches, as Kafka's first unstable offset does.
//
// Memory: one entry per open transaction (at most one per producer writing to the partition)
// and one per aborted transaction whose abort marker the log still holds; the log drops the
// aborted entries wholly below its start as it drops segments. An entry (24 bytes) is smaller
// than the marker batch it stands for, so the index stays within the log's own size; it is
// not part of BatchLog::memory_bytes(), whose growth Cluster::append accounts per append.
// Not thread-safe: the broker's single network thread owns it, as it owns the BatchLog.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace kgroups::broker {

// An aborted transaction of one producer: its data lies in [first_offset, last_offset], where
// last_offset is the abort marker's offset.
struct AbortedTransaction {
  std::int64_t producer_id = 0;
  std::int64_t first_offset = 0;  // the transaction's first batch (or its marker if none)
  std::int64_t last_offset = 0;   // the abort marker's offset (inclusive)

  bool operator==(const AbortedTransaction&) const = default;
};

class PartitionTransactions {
 public:
  // A transactional batch of `producer_id` was appended at `base_offset`. The first one of
  // the producer's transaction opens it there; later ones change nothing. Requires
  // base_offset to be above every offset reported before (appends come in offset order).
  void on_transactional_append(std::int64_t producer_id, std::int64_t base_offset);

  // A commit or abort marker of `producer_id` was appended at `marker_offset`: it ends the
  // producer's open transaction. An abort is remembered as {producer_id, first offset of the
  // transaction, marker_offset}; an abort with no open transaction (the producer wrote
  // nothing here) as {producer_id, marker_offset, marker_offset}, as Kafka does. A commit
  // with no open transaction changes nothing.
  void on_marker(std::int64_t producer_id, std::int64_t marker_offset, bool committed);

  // The log start offset moved up to `log_start_offset` (retention, eviction, DeleteRecords):
  // aborted transactions whose marker is below it are forgotten, and open transactions that
  // began below it now begin at it.
  void on_log_start_moved(std::int64_t log_start_offset);

  // The log was truncated to `offset`: transactions opened at or after it are forgotten, and
  // an abort whose marker was dropped opens its transaction again (its data is still there).
  void on_truncate(std::int64_t offset);

  // min(first offset of the oldest open transaction, high_watermark).
  [[nodiscard]] std::int64_t last_stable_offset(std::int64_t high_watermark) const {
    return open_.empty() || open_.front().first_offset > high_watermark
               ? high_watermark
               : open_.front().first_offset;
  }

  // Calls `visit(const AbortedTransaction&)` for each aborted transaction overlapping the
  // offsets [from, to), i.e. last_offset >= from and first_offset < to, in marker order.
  // Allocates nothing; costs a binary search plus the aborted transactions whose marker lies
  // in [from, to + the longest aborted transaction).
  template <typename Visit>
  void for_each_aborted(std::int64_t from, std::int64_t to, Visit&& visit) const {
    if (to <= from) return;
    for (const AbortedTransaction& aborted : aborted_from(from)) {
      if (aborted.last_offset - longest_aborted_span_ >= to) break;  // first_offset >= to
      if (aborted.first_offset < to) visit(aborted);
    }
  }

  // Appends to `out` the aborted transactions for_each_aborted(from, to) visits, so a caller
  // can keep one buffer for every fetch. Returns how many it appended.
  std::size_t collect_aborted(std::int64_t from, std::int64_t to,
                              std::vector<AbortedTransaction>& out) const;

  // The retained aborted transactions whose marker is at or after `offset`, in marker order.
  [[nodiscard]] std::span<const AbortedTransaction> aborted_from(std::int64_t offset) const;

  // The first offset of `producer_id`'s open transaction here, or -1 if it has none.
  [[nodiscard]] std::int64_t open_transaction_first_offset(std::int64_t producer_id) const;

  // Number of open transactions.
  [[nodiscard]] std::size_t open_count() const { return open_.size(); }
  // Number of retained aborted transactions.
  [[nodiscard]] std::size_t aborted_count() const { return aborted_.size() - aborted_begin_; }
  // True when the partition has no open and no retained aborted transaction: a fetch then
  // reads as if there were no transactions.
  [[nodiscard]] bool empty() const { return open_.empty() && aborted_count() == 0; }
  // Bytes the index holds (capacity of its two lists).
  [[nodiscard]] std::size_t memory_bytes() const {
    return open_.capacity() * sizeof(OpenTransaction) +
           aborted_.capacity() * sizeof(AbortedTransaction);
  }

 private:
  struct OpenTransaction {
    std::int64_t producer_id = 0;
    std::int64_t first_offset = 0;  // its first batch, or the log start offset if that is later
  };

  std::vector<OpenTransaction> open_;        // in opening order: first offsets grow
  std::vector<AbortedTransaction> aborted_;  // in marker order; live from aborted_begin_
  std::size_t aborted_begin_ = 0;            // aborted_ entries before this were forgotten
  std::int64_t longest_aborted_span_ = 0;    // max last_offset - first_offset ever aborted
};

}  // namespace kgroups::broker
