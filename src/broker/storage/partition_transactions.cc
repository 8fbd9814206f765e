// SPDX-License-Identifier: Apache-2.0
#include "broker/storage/partition_transactions.h"

#include <algorithm>

namespace kgroups::broker {
namespace {

// Below this many forgotten aborted entries the list is not compacted.
constexpr std::size_t kMinAbortedCompaction = 32;

}  // namespace

void PartitionTransactions::on_transactional_append(std::int64_t producer_id,
                                                    std::int64_t base_offset) {
  if (open_transaction_first_offset(producer_id) >= 0) return;
  open_.push_back(OpenTransaction{.producer_id = producer_id, .first_offset = base_offset});
}

void PartitionTransactions::on_marker(std::int64_t producer_id, std::int64_t marker_offset,
                                      bool committed) {
  const auto it = std::find_if(open_.begin(), open_.end(), [producer_id](const auto& open) {
    return open.producer_id == producer_id;
  });
  const bool was_open = it != open_.end();
  const std::int64_t first_offset = was_open ? it->first_offset : marker_offset;
  if (was_open) open_.erase(it);
  if (committed) return;
  aborted_.push_back(AbortedTransaction{
      .producer_id = producer_id, .first_offset = first_offset, .last_offset = marker_offset});
  longest_aborted_span_ = std::max(longest_aborted_span_, marker_offset - first_offset);
}

void PartitionTransactions::on_log_start_moved(std::int64_t log_start_offset) {
  for (OpenTransaction& open : open_) {
    open.first_offset = std::max(open.first_offset, log_start_offset);
  }
  while (aborted_begin_ < aborted_.size() &&
         aborted_[aborted_begin_].last_offset < log_start_offset) {
    ++aborted_begin_;
  }
  if (aborted_begin_ == aborted_.size()) {
    aborted_ = std::vector<AbortedTransaction>();  // none left: keep no memory
    aborted_begin_ = 0;
  } else if (aborted_begin_ >= kMinAbortedCompaction && aborted_begin_ * 2 >= aborted_.size()) {
    std::vector<AbortedTransaction> live(
        aborted_.begin() + static_cast<std::ptrdiff_t>(aborted_begin_), aborted_.end());
    aborted_ = std::move(live);
    aborted_begin_ = 0;
  }
}

void PartitionTransactions::on_truncate(std::int64_t offset) {
  std::erase_if(open_,
                [offset](const OpenTransaction& open) { return open.first_offset >= offset; });
  while (aborted_.size() > aborted_begin_ && aborted_.back().last_offset >= offset) {
    const AbortedTransaction dropped = aborted_.back();
    aborted_.pop_back();
    if (dropped.first_offset >= offset) continue;
    const auto at = std::partition_point(open_.begin(), open_.end(), [&](const OpenTransaction& o) {
      return o.first_offset < dropped.first_offset;
    });
    open_.insert(at, OpenTransaction{.producer_id = dropped.producer_id,
                                     .first_offset = dropped.first_offset});
  }
}

std::span<const AbortedTransaction> PartitionTransactions::aborted_from(std::int64_t offset) const {
  const auto live = std::span<const AbortedTransaction>(aborted_).subspan(aborted_begin_);
  const auto it = std::partition_point(live.begin(), live.end(), [offset](const auto& aborted) {
    return aborted.last_offset < offset;
  });
  return live.subspan(static_cast<std::size_t>(it - live.begin()));
}

std::size_t PartitionTransactions::collect_aborted(std::int64_t from, std::int64_t to,
                                                   std::vector<AbortedTransaction>& out) const {
  const std::size_t before = out.size();
  for_each_aborted(from, to, [&out](const AbortedTransaction& aborted) { out.push_back(aborted); });
  return out.size() - before;
}

std::int64_t PartitionTransactions::open_transaction_first_offset(std::int64_t producer_id) const {
  for (const OpenTransaction& open : open_) {
    if (open.producer_id == producer_id) return open.first_offset;
  }
  return -1;
}

}  // namespace kgroups::broker
