// SPDX-License-Identifier: Apache-2.0
//
// ShareGroupCoordinator: kgroupsd's share groups (KIP-932, Kafka's queues) as plain logic
// apart from the network: membership by ShareGroupHeartbeat (API 76) with the simple share
// assignor (share/share_assignor.h), ShareGroupDescribe (77), and every group's
// share-partitions, which ShareFetch and ShareAcknowledge (78, 79) acquire and acknowledge
// records of. The record rules are share::SharePartition's, the model's own (SPEC.md,
// "Share groups"); this class adds members, epochs, sessions and the clock.
//
// Membership: a member joins with epoch 0 and its subscribed topic names, heartbeats with
// its epoch, leaves with epoch -1. Every change of members or subscriptions bumps the group
// epoch and reassigns the whole group at once (share groups never revoke: a partition may
// have several members). A member gets its assignment, and the group epoch as its own,
// on its next heartbeat. A member whose session runs out (no heartbeat for the group's
// session_timeout_ms, ShareGroupSettings) is removed; a removed member's acquired records are
// released.
//
// Share-partitions: created when a partition is first assigned to the group, starting at
// the log's end (share.auto.offset.reset=latest, Kafka's default) or its start (earliest).
// Locks run on the coordinator's clock; expiries apply at the start of every call and in
// poll_timers(), at or soon after next_deadline().
//
// Bounded state: max_groups, max_members per group, id lengths, and the bytes of members
// and in-flight records against max_stored_bytes (each share-partition keeps at most
// partition_max_record_locks records of state::SharePartition::InFlightRecord bytes);
// a call that would pass a bound is refused before it changes anything.
//
// Observation: with an observer set (set_observer()), members joining, leaving and expiring
// are reported as the other coordinators report theirs (GroupType::kShare), and records that
// go back without an acknowledgement (an expired lock, a member leaving, expiring or closing
// its share session) through on_records_released().
//
// Not thread-safe: the broker calls it from one strand only. `clock`, `catalog` and
// `log_bounds` must outlive it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "broker/coordinator/clock.h"
#include "broker/coordinator/consumer_assignment.h"
#include "broker/coordinator/coordinated_share_group.h"
#include "broker/coordinator/deadline_index.h"
#include "broker/coordinator/group_error.h"
#include "broker/coordinator/group_observer.h"
#include "broker/coordinator/group_summary.h"
#include "broker/coordinator/topic_catalog.h"

namespace kgroups::broker {

struct ShareGroupConfig {
  // The broker's defaults for every group: group.share.session.timeout.ms,
  // group.share.heartbeat.interval.ms and the record settings.
  ShareGroupSettings settings;
  std::size_t max_groups = 1'000;
  std::size_t max_members = 200;  // group.share.max.size
  std::size_t max_id_length = 1'000;
  std::size_t max_subscribed_topics = 1'000;
  std::size_t max_stored_bytes = 0;  // 0: no bound
};

struct ShareGroupHeartbeatParams {
  std::string group_id;
  std::string member_id;
  std::int32_t member_epoch = 0;
  std::optional<std::string> rack_id;
  std::optional<std::vector<std::string>> subscribed_topic_names;  // nullopt: unchanged
  std::string client_id;
  std::string client_host;
};

struct ShareGroupHeartbeatResult {
  GroupError error = GroupError::kNone;
  std::string error_message;
  std::string member_id;
  std::int32_t member_epoch = 0;
  std::int32_t heartbeat_interval_ms = 0;
  std::optional<std::vector<TopicPartitions>> assignment;  // sent when it changed
};

struct ShareGroupMemberDescription {
  std::string member_id;
  std::optional<std::string> rack_id;
  std::int32_t member_epoch = 0;
  std::string client_id;
  std::string client_host;
  std::vector<std::string> subscribed_topic_names;
  std::vector<TopicPartitions> assignment;
  std::int64_t records_held = 0;  // records it has acquired and not acknowledged
};

struct SharePartitionDescription {
  TopicId topic_id{};
  std::string topic_name;
  std::int32_t partition = 0;
  std::int64_t start_offset = 0;
  std::int64_t end_offset = 0;
  share::InFlightCounts in_flight;
  share::ShareTotals totals;
};

struct ShareGroupDescription {
  GroupError error = GroupError::kNone;
  std::string group_id;
  std::string state;  // Kafka's: "Empty" or "Stable"
  std::int32_t group_epoch = 0;
  std::int32_t assignment_epoch = 0;
  std::vector<ShareGroupMemberDescription> members;
  std::vector<SharePartitionDescription> partitions;  // topic name, partition order
};

class ShareGroupCoordinator {
 public:
  // (log start offset, high watermark) of a partition, or nullopt if it does not exist.
  using LogBounds = std::function<std::optional<std::pair<std::int64_t, std::int64_t>>(
      const TopicId&, std::int32_t)>;
  using Logger = std::function<void(std::string_view line)>;

  ShareGroupCoordinator(ShareGroupConfig config, const Clock& clock, const TopicCatalog& catalog,
                        LogBounds log_bounds, Logger logger = {});

  ShareGroupCoordinator(const ShareGroupCoordinator&) = delete;
  ShareGroupCoordinator& operator=(const ShareGroupCoordinator&) = delete;

  // ShareGroupHeartbeat. Errors (nothing changes): INVALID_REQUEST (empty group id, member id
  // or rack id; a join without subscribed topics; an epoch below -1; an over-long field),
  // INVALID_GROUP_ID, UNKNOWN_MEMBER_ID (not a member), FENCED_MEMBER_EPOCH (an epoch other
  // than the member's), GROUP_MAX_SIZE_REACHED, POLICY_VIOLATION (beyond max_groups),
  // COORDINATOR_LOAD_IN_PROGRESS (beyond max_stored_bytes).
  ShareGroupHeartbeatResult heartbeat(const ShareGroupHeartbeatParams& params);

  ShareGroupDescription describe_group(std::string_view group_id);
  // ListGroups: every share group, ordered by id, protocol type "share" (Kafka's).
  std::vector<GroupListing> list_groups();
  [[nodiscard]] bool has_group(std::string_view group_id) const;
  [[nodiscard]] std::vector<std::string> group_ids() const;

  // Whether `member_id` is a member of `group_id` now (after due expiries).
  GroupError check_member(std::string_view group_id, std::string_view member_id);

  // ShareFetch's acquisition on one partition (check_member() first): the offset to read the
  // log from, i.e. the share-partition's next acquirable offset once its start has followed
  // `log_start_offset` (records deleted from the log are gone from the share-partition too).
  // The share-partition is created at the group's first assignment of the partition, or here,
  // at the log's bounds, if a member fetches a partition it was never assigned. Nullopt: no
  // such group or partition, or no memory left for a new share-partition.
  std::optional<std::int64_t> start_acquiring(std::string_view group_id, const TopicId& topic_id,
                                              std::int32_t partition,
                                              std::int64_t log_start_offset);
  // Acquires for the member records of `partition` below `log_end` (see SharePartition).
  int acquire(std::string_view group_id, std::string_view member_id, const TopicId& topic_id,
              std::int32_t partition, std::int64_t log_end, int max_records,
              std::vector<share::AcquiredRange>& out);
  // ShareAcknowledge / ShareFetch's acknowledgements on one partition.
  share::AcknowledgeRefusal acknowledge(std::string_view group_id, std::string_view member_id,
                                        const TopicId& topic_id, std::int32_t partition,
                                        std::span<const share::Acknowledgement> acks);
  // Releases every record the member holds (its share session closed).
  void release_member_records(std::string_view group_id, std::string_view member_id);

  // The lock duration groups' records get (for ShareFetch's acquisition_lock_timeout_ms).
  [[nodiscard]] std::int64_t record_lock_duration_ms(std::string_view group_id) const;

  // The group's own settings (IncrementalAlterConfigs on the group resource).
  void set_group_settings(std::string_view group_id, ShareGroupSettings settings);
  [[nodiscard]] ShareGroupSettings settings_of(std::string_view group_id) const;
  [[nodiscard]] const ShareGroupConfig& config() const { return config_; }

  // Share-group offsets admin (DescribeShareGroupOffsets, AlterShareGroupOffsets,
  // DeleteShareGroupOffsets): each partition's start offset; altering and deleting need a
  // group without members (NON_EMPTY_GROUP otherwise).
  GroupError alter_start_offset(std::string_view group_id, const TopicId& topic_id,
                                std::int32_t partition, std::int64_t offset);
  GroupError delete_topic_state(std::string_view group_id, const TopicId& topic_id);
  GroupError delete_group(std::string_view group_id);
  // The topic was deleted: its share-partitions go from every group.
  void forget_topic(const TopicId& topic_id);

  // Tells `observer` (nullptr: no one) what happens to the share groups from now on. It must
  // outlive the coordinator, or be replaced first.
  void set_observer(GroupObserver* observer) { observer_ = observer; }

  // Bytes kept: groups, members, share-partitions and in-flight record state. A running
  // total, updated by each call for the groups it touched (O(1) on the fetch path).
  [[nodiscard]] std::size_t stored_bytes() const { return stored_bytes_; }
  // stored_bytes() recomputed by visiting every group: for tests of the running total.
  [[nodiscard]] std::size_t recount_stored_bytes() const;
  void set_max_stored_bytes(std::size_t bytes) { config_.max_stored_bytes = bytes; }

  void poll_timers();
  [[nodiscard]] std::optional<Clock::TimePoint> next_deadline() const {
    return deadlines_.earliest();
  }
  // Milliseconds on the coordinator's clock (lock deadlines are in these).
  [[nodiscard]] std::int64_t now_ms() const;

 private:
  ShareGroupHeartbeatResult join_or_heartbeat(const ShareGroupHeartbeatParams& params);
  ShareGroupHeartbeatResult leave(const ShareGroupHeartbeatParams& params);
  [[nodiscard]] std::optional<ShareGroupHeartbeatResult> refuse(
      const ShareGroupHeartbeatParams& params) const;
  // Removes the member, releasing its records; `expired`: for missing its session deadline
  // (else it left).
  void remove_member(CoordinatedShareGroup& group, const std::string& member_id, bool expired);
  // Applies `release` to every share-partition of the group and reports the records it
  // released, if any, to the observer with `member_id` and `reason` (ObservedRelease).
  template <typename Release>
  void release_and_report(CoordinatedShareGroup& group, std::string_view member_id,
                          std::string_view reason, Release release);
  void reassign(CoordinatedShareGroup& group);
  share::SharePartition* share_partition(CoordinatedShareGroup& group, const TopicId& topic_id,
                                         std::int32_t partition);
  // The bytes the group keeps now (what recount() charges for it).
  [[nodiscard]] static std::size_t group_bytes(const CoordinatedShareGroup& group);
  // Brings stored_bytes() up to date with the group after a change to it.
  void recount(CoordinatedShareGroup& group);
  // Charges the group `after - before` bytes (one share-partition's state changed size).
  void recharge(CoordinatedShareGroup& group, std::size_t before, std::size_t after);
  void create_share_partitions(CoordinatedShareGroup& group);
  void expire(CoordinatedShareGroup& group);
  void refile(const CoordinatedShareGroup& group);
  void apply_due();
  CoordinatedShareGroup* find(std::string_view group_id);
  [[nodiscard]] const ShareGroupSettings& settings(const CoordinatedShareGroup& group) const {
    return group.own_settings() ? *group.own_settings() : config_.settings;
  }
  [[nodiscard]] static std::size_t member_bytes(const ShareGroupMember& member);
  void log(const std::string& line) const;

  ShareGroupConfig config_;
  const Clock& clock_;
  const TopicCatalog& catalog_;
  LogBounds log_bounds_;
  Logger logger_;
  Clock::TimePoint epoch_;
  std::map<std::string, std::unique_ptr<CoordinatedShareGroup>, std::less<>> groups_;
  DeadlineIndex deadlines_;
  GroupObserver* observer_ = nullptr;
  std::size_t stored_bytes_ = 0;
};

}  // namespace kgroups::broker
