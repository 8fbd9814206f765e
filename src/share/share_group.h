// SPDX-License-Identifier: Apache-2.0
//
// ShareGroup: one share group of a Topic (SPEC.md, "Share groups"): its members
// (sorted by id, each interned to a MemberIndex), each member's assignment from
// Kafka's simple share assignor, and a SharePartition per partition, created when
// the partition is first assigned to one of the members and kept from then on.
// It holds no records: the caller reads the log where acquire() says, passing the
// log's end offsets and its clock in. The group also keeps the earliest lock
// deadline of its records (never later than the true one), so expiring locks
// costs nothing until a lock can have run out.
// Not thread-safe: Topic holds the group's mutex around every call. Every method
// that can refuse checks first and changes nothing when it refuses.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "share/share_limits.h"
#include "share/share_partition.h"

namespace kgroups::share {

struct ShareMember {
  std::string id;
  MemberIndex index = kNoMember;  // what its share-partitions know it by
  std::vector<int> partitions;    // assigned partitions, ascending
};

// Where a partition assigned to the group for the first time starts (the caller
// resolves share.auto.offset.reset against the log).
using StartOffsetFor = std::function<std::int64_t(int partition)>;

class ShareGroup {
 public:
  ShareGroup(int num_partitions, const ShareLimits& limits);

  // Adds the member and reassigns the group; returns false (and does nothing) if
  // it is already a member.
  bool join(std::string_view member, const StartOffsetFor& start_offset_for);

  // Releases every record the member holds, removes it and reassigns the group;
  // returns false (and does nothing) if it is not a member.
  bool leave(std::string_view member, const StartOffsetFor& start_offset_for);

  // The member with this id, or nullptr.
  [[nodiscard]] const ShareMember* find(std::string_view member) const noexcept;

  // The share-partition of `partition`, or nullptr if the group was never assigned it.
  [[nodiscard]] const SharePartition* partition(int partition) const noexcept;

  // SharePartition::acquire on one of the member's partitions; notes the new locks.
  int acquire(const ShareMember& member, int partition, std::int64_t log_end, int max_records,
              std::int64_t now_ms, std::vector<AcquiredRange>& out);

  // The first of `records` the member does not hold now, or nullopt if it holds them all.
  [[nodiscard]] std::optional<std::pair<int, std::int64_t>> first_not_held(
      const ShareMember& member, std::span<const std::pair<int, std::int64_t>> records) const;

  // Acknowledges `records`, which the member must hold (first_not_held says so).
  void acknowledge(const ShareMember& member, std::span<const std::pair<int, std::int64_t>> records,
                   AcknowledgeType type);

  // Acknowledges every record the member holds now.
  void acknowledge_all(const ShareMember& member, AcknowledgeType type);

  // Releases every record whose lock ran out at or before now_ms (only if one can have).
  void expire_locks(std::int64_t now_ms);

  // The earliest lock deadline that may be due (never later than the true one).
  [[nodiscard]] std::int64_t next_lock_deadline() const noexcept { return next_deadline_; }

  // A vector for the caller's acquire() results, reused from call to call.
  [[nodiscard]] std::vector<AcquiredRange>& ranges_scratch() noexcept { return ranges_; }

 private:
  static constexpr std::int64_t kNoDeadline = std::numeric_limits<std::int64_t>::max();

  ShareMember* find_mutable(std::string_view member) noexcept;
  // Reassigns the members with the simple share assignor (members sorted by id, their
  // current partitions kept) and creates the share-partitions assigned for the first time.
  void reassign(std::vector<ShareMember>& members, const StartOffsetFor& start_offset_for);
  [[nodiscard]] MemberIndex free_index() const;

  int num_partitions_;
  ShareLimits limits_;
  std::vector<ShareMember> members_;                   // sorted by id
  std::vector<std::optional<SharePartition>> shares_;  // shares_[p]: partition p, once assigned
  std::int64_t next_deadline_ = kNoDeadline;
  std::vector<Acknowledgement> acks_;  // scratch for acknowledge_all, reused
  std::vector<AcquiredRange> ranges_;  // scratch for the caller's acquire(), reused
};

}  // namespace kgroups::share
