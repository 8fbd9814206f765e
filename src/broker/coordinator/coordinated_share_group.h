// SPDX-License-Identifier: Apache-2.0
//
// CoordinatedShareGroup: one share group (KIP-932) as kgroupsd's ShareGroupCoordinator keeps it —
// its members with their subscriptions, epochs, session deadlines and assigned
// partitions, and its share-partitions (kgroups::share::SharePartition, the rules the
// model's Topic uses too), created when a partition is first assigned to the group.
// Plain data with the few operations that keep it consistent; the coordinator applies
// the protocol.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "broker/coordinator/clock.h"
#include "broker/coordinator/consumer_assignment.h"
#include "broker/coordinator/topic_id.h"
#include "share/share_limits.h"
#include "share/share_partition.h"

namespace kgroups::broker {

struct ShareGroupMember {
  std::string member_id;
  share::MemberIndex index = share::kNoMember;
  std::int32_t member_epoch = 0;
  std::optional<std::string> rack_id;
  std::string client_id;
  std::string client_host;
  std::vector<std::string> subscribed_topic_names;  // sorted, unique
  std::vector<TopicPartitions> assignment;          // by topic id order, partitions ascending
  bool assignment_pending = true;  // the member has not been sent its current assignment
  Clock::TimePoint session_deadline{};
};

struct SharePartitionKey {
  TopicId topic_id{};
  std::int32_t partition = 0;
  bool operator==(const SharePartitionKey&) const = default;
};

struct SharePartitionKeyHash {
  std::size_t operator()(const SharePartitionKey& key) const noexcept {
    std::size_t hash = static_cast<std::size_t>(key.partition) * 0x9E3779B97F4A7C15ULL;
    for (const std::uint8_t byte : key.topic_id) hash = hash * 31U + byte;
    return hash;
  }
};

// A group's own settings (IncrementalAlterConfigs on the group), over the broker's.
struct ShareGroupSettings {
  share::ShareLimits limits;
  bool start_at_earliest = false;            // share.auto.offset.reset: latest (false) or earliest
  std::int32_t session_timeout_ms = 45'000;  // share.session.timeout.ms
  std::int32_t heartbeat_interval_ms = 5'000;  // share.heartbeat.interval.ms
  // Which of the settings the group set itself (kOwn* bits); the others are the broker's.
  std::uint8_t own = 0;
  static constexpr std::uint8_t kOwnRecordLockDuration = 1;
  static constexpr std::uint8_t kOwnAutoOffsetReset = 2;
  static constexpr std::uint8_t kOwnDeliveryCountLimit = 4;
  static constexpr std::uint8_t kOwnPartitionMaxRecordLocks = 8;
  static constexpr std::uint8_t kOwnSessionTimeout = 16;
  static constexpr std::uint8_t kOwnHeartbeatInterval = 32;
};

class CoordinatedShareGroup {
 public:
  explicit CoordinatedShareGroup(std::string group_id) : group_id_(std::move(group_id)) {}

  [[nodiscard]] const std::string& group_id() const { return group_id_; }
  [[nodiscard]] std::int32_t group_epoch() const { return group_epoch_; }
  void bump_epoch() { ++group_epoch_; }

  [[nodiscard]] const std::map<std::string, ShareGroupMember, std::less<>>& members() const {
    return members_;
  }
  ShareGroupMember* member(std::string_view member_id);
  [[nodiscard]] const ShareGroupMember* member(std::string_view member_id) const;
  ShareGroupMember& add_member(std::string member_id);
  void remove_member(std::string_view member_id);

  std::unordered_map<SharePartitionKey, share::SharePartition, SharePartitionKeyHash>&
  partitions() {
    return partitions_;
  }
  [[nodiscard]] const std::unordered_map<SharePartitionKey, share::SharePartition,
                                         SharePartitionKeyHash>&
  partitions() const {
    return partitions_;
  }
  share::SharePartition* partition(const SharePartitionKey& key);

  std::optional<ShareGroupSettings>& own_settings() { return own_settings_; }
  [[nodiscard]] const std::optional<ShareGroupSettings>& own_settings() const {
    return own_settings_;
  }

  // The bytes the coordinator last counted for this group (its share of stored_bytes()).
  [[nodiscard]] std::size_t counted_bytes() const { return counted_bytes_; }
  void set_counted_bytes(std::size_t bytes) { counted_bytes_ = bytes; }

  // The earliest session or lock deadline of the group, or nullopt.
  [[nodiscard]] std::optional<Clock::TimePoint> next_deadline(Clock::TimePoint lock_epoch) const;

 private:
  std::string group_id_;
  std::int32_t group_epoch_ = 0;
  std::map<std::string, ShareGroupMember, std::less<>> members_;
  std::vector<share::MemberIndex> free_indices_;
  share::MemberIndex next_index_ = 0;
  std::unordered_map<SharePartitionKey, share::SharePartition, SharePartitionKeyHash> partitions_;
  std::optional<ShareGroupSettings> own_settings_;
  std::size_t counted_bytes_ = 0;
};

}  // namespace kgroups::broker
