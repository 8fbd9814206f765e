// SPDX-License-Identifier: Apache-2.0
//
// SharePartition: one partition as a share group sees it (SPEC.md, "Share
// groups"; Kafka's KIP-932). Records from the start offset on are in flight:
// each is available, acquired by one member under a lock that expires,
// acknowledged, or archived. A poll acquires the oldest available records and
// then new ones from the end offset on; an acknowledgement accepts, releases or
// rejects records the member holds; a release, an expired lock or a member's
// departure makes a record available again, or archives it once it has been
// delivered delivery_count_limit times. The start offset moves past every
// leading acknowledged or archived record. The model's Topic and kgroupsd's
// share coordinator both keep their share-partitions in this class, so the
// rules are written once.
//
// Members are small integers the caller interns (kNoMember is none). Time is
// the caller's clock in milliseconds. Every method that can refuse checks
// first and changes nothing when it refuses. State per in-flight record:
// sizeof(InFlightRecord) bytes, at most partition_max_record_locks of them.
// Not thread-safe.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <vector>

#include "kgroups/share_record.h"
#include "share/share_limits.h"

namespace kgroups::share {

using MemberIndex = std::uint32_t;
inline constexpr MemberIndex kNoMember = 0xFFFF'FFFFU;

enum class RecordState : std::uint8_t { kAvailable, kAcquired, kAcknowledged, kArchived };

using kgroups::AcknowledgeType;

// A run of consecutive offsets acquired in one poll with the same delivery count.
struct AcquiredRange {
  std::int64_t first_offset = 0;
  std::int64_t last_offset = 0;
  int delivery_count = 0;
  friend bool operator==(const AcquiredRange&, const AcquiredRange&) = default;
};

struct Acknowledgement {
  std::int64_t offset = 0;
  AcknowledgeType type = AcknowledgeType::kAccept;
};

enum class AcknowledgeRefusal : std::uint8_t {
  kNone,
  kNotAcquiredByMember,  // outside the window, not acquired, or acquired by another member
};

// What happened to a share-partition's records since it was created (for the
// console, /metrics and the CLI).
struct ShareTotals {
  std::int64_t deliveries = 0;    // acquisitions, first deliveries and redeliveries
  std::int64_t redeliveries = 0;  // acquisitions of a record delivered before
  std::int64_t accepted = 0;
  std::int64_t released = 0;           // by the member, by an expired lock or by its departure
  std::int64_t rejected = 0;           // rejects and gaps
  std::int64_t archived_by_limit = 0;  // released at the delivery-count limit
  std::int64_t locks_expired = 0;
};

// The records in flight now, by state.
struct InFlightCounts {
  std::int64_t available = 0;
  std::int64_t acquired = 0;
  std::int64_t acknowledged = 0;
  std::int64_t archived = 0;
};

class SharePartition {
 public:
  struct InFlightRecord {
    std::int64_t lock_deadline_ms = 0;
    MemberIndex member = kNoMember;
    std::uint16_t delivery_count = 0;
    RecordState state = RecordState::kAvailable;
  };

  // A share-partition whose first record to deliver is start_offset (the caller resolves
  // share.auto.offset.reset against the log).
  explicit SharePartition(std::int64_t start_offset) noexcept;

  // The share-partition start offset (SPSO): every record below it is done with.
  [[nodiscard]] std::int64_t start_offset() const noexcept { return start_offset_; }
  // The share-partition end offset: the first offset never acquired.
  [[nodiscard]] std::int64_t end_offset() const noexcept {
    return start_offset_ + static_cast<std::int64_t>(window_.size());
  }

  // Acquires for `member` up to max_records records below log_end: first the available
  // records of the window, oldest first, then new records from end_offset() on while the
  // window holds fewer than partition_max_record_locks records. Each acquired record's
  // delivery count goes up by one and its lock runs until now_ms + record_lock_duration_ms.
  // Appends the acquired runs to `out`, in offset order; returns how many records it took.
  int acquire(MemberIndex member, std::int64_t log_end, int max_records, std::int64_t now_ms,
              const ShareLimits& limits, std::vector<AcquiredRange>& out);

  // The lowest offset acquire() could take now: the oldest available record of the window,
  // else end_offset(). Where a reader of the log starts.
  [[nodiscard]] std::int64_t next_acquirable_offset() const noexcept;

  // Applies the acknowledgements if every one names a record `member` holds now; otherwise
  // refuses and changes nothing. Accept acknowledges; release makes the record available
  // (archived at the delivery-count limit); reject and gap archive it.
  AcknowledgeRefusal acknowledge(MemberIndex member, std::span<const Acknowledgement> acks,
                                 const ShareLimits& limits);

  // Whether `member` holds `offset` now.
  [[nodiscard]] bool held_by(MemberIndex member, std::int64_t offset) const noexcept;

  // Releases every record `member` holds (it left or its session ended).
  void release_member(MemberIndex member, const ShareLimits& limits);

  // Releases every record whose lock ran out at or before now_ms. Returns how many.
  int expire_locks(std::int64_t now_ms, const ShareLimits& limits);

  // The earliest lock deadline of an acquired record, if any. Kept as records are acquired;
  // the window is scanned again only after the record holding it left the acquired state.
  [[nodiscard]] std::optional<std::int64_t> next_lock_deadline() const noexcept;

  // The log's start moved to log_start (retention, DeleteRecords): records below it are
  // gone from the window.
  void advance_log_start(std::int64_t log_start);

  // Starts over at start_offset with nothing in flight (AlterShareGroupOffsets, which Kafka
  // allows only while the group has no members).
  void reset(std::int64_t start_offset);

  // The record at `offset` in the window, or nullptr outside it.
  [[nodiscard]] const InFlightRecord* record(std::int64_t offset) const noexcept;

  // Counts every state: a scan of the window (available_count() is kept as it changes).
  [[nodiscard]] InFlightCounts in_flight() const noexcept;
  // Available records in the window now.
  [[nodiscard]] std::int64_t available_count() const noexcept { return in_flight_available_; }
  [[nodiscard]] const ShareTotals& totals() const noexcept { return totals_; }
  // Records `member` holds now.
  [[nodiscard]] std::int64_t held_count(MemberIndex member) const noexcept;
  // Bytes this share-partition keeps for its in-flight records.
  [[nodiscard]] std::size_t state_bytes() const noexcept {
    return window_.size() * sizeof(InFlightRecord);
  }

 private:
  void release_record(InFlightRecord& record, const ShareLimits& limits);
  void take(InFlightRecord& record, std::int64_t offset, MemberIndex member, std::int64_t deadline,
            std::vector<AcquiredRange>& out);
  void advance_start();
  // A record leaves the acquired state: the earliest lock deadline may have gone with it.
  void unlocked(const InFlightRecord& record) noexcept {
    if (record.lock_deadline_ms <= earliest_lock_ms_) earliest_lock_known_ = false;
  }

  std::int64_t start_offset_;
  std::deque<InFlightRecord> window_;  // window_[i] is offset start_offset_ + i
  std::int64_t acquired_count_ = 0;
  std::int64_t in_flight_available_ = 0;
  // The earliest lock deadline of the acquired records, when earliest_lock_known_.
  mutable std::int64_t earliest_lock_ms_ = 0;
  mutable bool earliest_lock_known_ = false;
  ShareTotals totals_;
};

}  // namespace kgroups::share
