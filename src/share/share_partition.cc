// SPDX-License-Identifier: Apache-2.0
#include "share/share_partition.h"

#include <algorithm>

namespace kgroups::share {

SharePartition::SharePartition(std::int64_t start_offset) noexcept : start_offset_(start_offset) {}

void SharePartition::take(InFlightRecord& record, std::int64_t offset, MemberIndex member,
                          std::int64_t deadline, std::vector<AcquiredRange>& out) {
  if (record.delivery_count > 0) ++totals_.redeliveries;
  ++totals_.deliveries;
  ++record.delivery_count;
  record.state = RecordState::kAcquired;
  record.member = member;
  record.lock_deadline_ms = deadline;
  if (acquired_count_ == 0) {
    earliest_lock_ms_ = deadline;
    earliest_lock_known_ = true;
  } else if (earliest_lock_known_ && deadline < earliest_lock_ms_) {
    earliest_lock_ms_ = deadline;
  }
  ++acquired_count_;
  const int count = record.delivery_count;
  if (!out.empty() && out.back().last_offset + 1 == offset && out.back().delivery_count == count) {
    out.back().last_offset = offset;
  } else {
    out.push_back({offset, offset, count});
  }
}

int SharePartition::acquire(MemberIndex member, std::int64_t log_end, int max_records,
                            std::int64_t now_ms, const ShareLimits& limits,
                            std::vector<AcquiredRange>& out) {
  if (max_records <= 0) return 0;
  const std::int64_t deadline = now_ms + limits.record_lock_duration_ms;
  int taken = 0;
  // Redeliveries first: the window's available records, oldest first.
  const std::int64_t in_window = std::min<std::int64_t>(end_offset(), log_end) - start_offset_;
  const std::int64_t available = in_flight_available_;
  if (available > 0) {
    for (std::int64_t i = 0; i < in_window && taken < max_records; ++i) {
      InFlightRecord& record = window_[static_cast<std::size_t>(i)];
      if (record.state != RecordState::kAvailable) continue;
      take(record, start_offset_ + i, member, deadline, out);
      --in_flight_available_;
      ++taken;
    }
  }
  // Then new records, while the window has room.
  const auto max_window = static_cast<std::size_t>(limits.partition_max_record_locks);
  while (taken < max_records && end_offset() < log_end && window_.size() < max_window) {
    const std::int64_t offset = end_offset();
    window_.emplace_back();
    take(window_.back(), offset, member, deadline, out);
    ++taken;
  }
  return taken;
}

std::int64_t SharePartition::next_acquirable_offset() const noexcept {
  if (in_flight_available_ > 0) {
    for (std::size_t i = 0; i < window_.size(); ++i) {
      if (window_[i].state == RecordState::kAvailable) {
        return start_offset_ + static_cast<std::int64_t>(i);
      }
    }
  }
  return end_offset();
}

bool SharePartition::held_by(MemberIndex member, std::int64_t offset) const noexcept {
  const InFlightRecord* found = record(offset);
  return found != nullptr && found->state == RecordState::kAcquired && found->member == member;
}

AcknowledgeRefusal SharePartition::acknowledge(MemberIndex member,
                                               std::span<const Acknowledgement> acks,
                                               const ShareLimits& limits) {
  for (const Acknowledgement& ack : acks) {
    if (!held_by(member, ack.offset)) return AcknowledgeRefusal::kNotAcquiredByMember;
  }
  for (const Acknowledgement& ack : acks) {
    InFlightRecord& record = window_[static_cast<std::size_t>(ack.offset - start_offset_)];
    if (record.state != RecordState::kAcquired) continue;  // named twice in one call
    switch (ack.type) {
      case AcknowledgeType::kAccept:
        unlocked(record);
        record.state = RecordState::kAcknowledged;
        record.member = kNoMember;
        --acquired_count_;
        ++totals_.accepted;
        break;
      case AcknowledgeType::kRelease:
        release_record(record, limits);
        break;
      case AcknowledgeType::kReject:
      case AcknowledgeType::kGap:
        unlocked(record);
        record.state = RecordState::kArchived;
        record.member = kNoMember;
        --acquired_count_;
        ++totals_.rejected;
        break;
    }
  }
  advance_start();
  return AcknowledgeRefusal::kNone;
}

void SharePartition::release_record(InFlightRecord& record, const ShareLimits& limits) {
  unlocked(record);
  --acquired_count_;
  ++totals_.released;
  record.member = kNoMember;
  if (record.delivery_count >= limits.delivery_count_limit) {
    record.state = RecordState::kArchived;
    ++totals_.archived_by_limit;
  } else {
    record.state = RecordState::kAvailable;
    ++in_flight_available_;
  }
}

void SharePartition::release_member(MemberIndex member, const ShareLimits& limits) {
  if (acquired_count_ == 0) return;
  for (InFlightRecord& record : window_) {
    if (record.state == RecordState::kAcquired && record.member == member) {
      release_record(record, limits);
    }
  }
  advance_start();
}

int SharePartition::expire_locks(std::int64_t now_ms, const ShareLimits& limits) {
  if (acquired_count_ == 0) return 0;
  int expired = 0;
  for (InFlightRecord& record : window_) {
    if (record.state == RecordState::kAcquired && record.lock_deadline_ms <= now_ms) {
      release_record(record, limits);
      ++expired;
    }
  }
  totals_.locks_expired += expired;
  if (expired > 0) advance_start();
  return expired;
}

std::optional<std::int64_t> SharePartition::next_lock_deadline() const noexcept {
  if (acquired_count_ == 0) return std::nullopt;
  if (!earliest_lock_known_) {
    std::optional<std::int64_t> earliest;
    for (const InFlightRecord& record : window_) {
      if (record.state == RecordState::kAcquired &&
          (!earliest || record.lock_deadline_ms < *earliest)) {
        earliest = record.lock_deadline_ms;
      }
    }
    earliest_lock_ms_ = earliest.value_or(0);
    earliest_lock_known_ = true;
  }
  return earliest_lock_ms_;
}

void SharePartition::advance_start() {
  while (!window_.empty() && (window_.front().state == RecordState::kAcknowledged ||
                              window_.front().state == RecordState::kArchived)) {
    window_.pop_front();
    ++start_offset_;
  }
}

void SharePartition::advance_log_start(std::int64_t log_start) {
  while (start_offset_ < log_start && !window_.empty()) {
    const InFlightRecord& front = window_.front();
    if (front.state == RecordState::kAcquired) {
      unlocked(front);
      --acquired_count_;
    }
    if (front.state == RecordState::kAvailable) --in_flight_available_;
    window_.pop_front();
    ++start_offset_;
  }
  start_offset_ = std::max(start_offset_, log_start);
}

void SharePartition::reset(std::int64_t start_offset) {
  window_.clear();
  start_offset_ = start_offset;
  acquired_count_ = 0;
  in_flight_available_ = 0;
  earliest_lock_known_ = false;
}

const SharePartition::InFlightRecord* SharePartition::record(std::int64_t offset) const noexcept {
  if (offset < start_offset_ || offset >= end_offset()) return nullptr;
  return &window_[static_cast<std::size_t>(offset - start_offset_)];
}

InFlightCounts SharePartition::in_flight() const noexcept {
  InFlightCounts counts;
  counts.acquired = acquired_count_;
  counts.available = in_flight_available_;
  for (const InFlightRecord& record : window_) {
    if (record.state == RecordState::kAcknowledged) ++counts.acknowledged;
    if (record.state == RecordState::kArchived) ++counts.archived;
  }
  return counts;
}

std::int64_t SharePartition::held_count(MemberIndex member) const noexcept {
  if (acquired_count_ == 0) return 0;
  return std::count_if(window_.begin(), window_.end(), [member](const InFlightRecord& record) {
    return record.state == RecordState::kAcquired && record.member == member;
  });
}

}  // namespace kgroups::share
