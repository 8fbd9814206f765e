// SPDX-License-Identifier: Apache-2.0
//
// CoordinatorService: the one entry point of the broker's group handlers. It owns the group
// coordinators — the classic one (JoinGroup/SyncGroup/Heartbeat/LeaveGroup), the
// consumer-group protocol's (KIP-848, ConsumerGroupHeartbeat) and the share groups'
// (KIP-932, ShareGroupHeartbeat, ShareFetch, ShareAcknowledge) — on the real clock, and for
// every call:
// - routes it to the coordinator that holds the group id (a group id belongs to one protocol
//   at a time; an empty classic group is handed over to a consumer-protocol member with its
//   offsets, as Kafka does; a classic member of a consumer group, or a consumer member of a
//   classic group with members, is refused; a share group id is a share group's only);
// - re-arms the expiry timer (sessions, rebalance and sync timeouts of both coordinators), so
//   no handler has to remember to;
// - shares the groups' memory (CoordinatorConfig::max_stored_bytes) between the two: before a
//   call that may store more, each coordinator's bound is what the other leaves of it.
// - writes what the coordinators do to __consumer_offsets (GroupRecordWriter), once a topic
//   is set (set_offsets_topic()), when each call ends: committed offsets (stamped with the
//   wall clock), group metadata, and the tombstones of offsets and groups deleted; and loads
//   a partition of it back (offsets_loader.h) through restore_offsets() and
//   unload_partition().
// Coordinator log lines go to the broker's log at INFO.
// Not thread-safe: lives on the broker's network thread like the rest of Broker.
#pragma once

#include <asio/any_io_executor.hpp>
#include <asio/awaitable.hpp>
#include <asio/steady_timer.hpp>
#include <optional>
#include <string_view>
#include <vector>

#include "broker/coordinator/clock.h"
#include "broker/coordinator/consumer_group_coordinator.h"
#include "broker/coordinator/coordinator_config.h"
#include "broker/coordinator/group_coordinator.h"
#include "broker/coordinator/group_observer_list.h"
#include "broker/coordinator/share_group_coordinator.h"
#include "broker/coordinator/topic_catalog.h"
#include "broker/groups/coordinator_topic.h"
#include "broker/groups/group_record_writer.h"

namespace kgroups::broker {

// OffsetFetch for one group, in the v9 form: member id and epoch are checked for consumer
// groups when given.
struct GroupOffsetFetch {
  std::string_view group_id;
  std::optional<std::string_view> member_id = std::nullopt;
  std::int32_t member_epoch = -1;
  std::optional<std::vector<TopicPartition>> partitions;  // nullopt: every committed one
};

struct GroupOffsetFetchResult {
  GroupError error = GroupError::kNone;
  std::vector<PartitionOffset> offsets;
};

// Where the coordinators read the time: the steady clock, or a ManualClock that moves only
// by advance_clock() (kgroupsd --manual-clock, for tests that drive session timeouts).
enum class CoordinatorClock { kSteady, kManual };

class CoordinatorService {
 public:
  // `catalog` must outlive the service.
  CoordinatorService(CoordinatorConfig config, ConsumerGroupConfig consumer_config,
                     const TopicCatalog& catalog,
                     CoordinatorClock clock = CoordinatorClock::kSteady,
                     ShareGroupConfig share_config = {},
                     ShareGroupCoordinator::LogBounds share_log_bounds = {});
  CoordinatorService(const CoordinatorService&) = delete;
  CoordinatorService& operator=(const CoordinatorService&) = delete;

  // Starts the expiry timer on `executor`; calls made before only apply due expiries. With
  // the manual clock there is no timer: advance_clock() applies what becomes due.
  void start(const asio::any_io_executor& executor);

  // Bytes kept beside the groups and charged to the same share (CoordinatorConfig::
  // max_stored_bytes): the transaction coordinator's open transactions (their partitions,
  // groups and pending offsets), the playground's delivered offsets and the ACLs (AclStore,
  // charged through Broker::groups_memory_charge()). try_hold_bytes() takes them if the share
  // has room and returns false (taking nothing) if not; release_bytes() gives them back.
  // room_bytes(): what the share has left.
  bool try_hold_bytes(std::size_t bytes);
  void release_bytes(std::size_t bytes);
  [[nodiscard]] std::size_t held_bytes() const { return held_bytes_; }
  [[nodiscard]] std::size_t room_bytes() const;

  // The clock. now_ms(): milliseconds the coordinators' clock moved since the service was
  // created (with the manual clock, the sum of the advances).
  [[nodiscard]] bool manual_clock() const { return &clock_ == &manual_clock_; }
  [[nodiscard]] std::int64_t now_ms() const;
  // With the manual clock: moves it forward by `duration` (>= 0), then applies every expiry
  // that became due (sessions, rebalance and sync timeouts, the initial rebalance delay) in
  // both coordinators, completing parked JoinGroup and SyncGroup calls, before returning.
  // Returns false (and changes nothing) without the manual clock, or when the clock would
  // move past kManualClockSpan in all (see clock_room()).
  bool advance_clock(std::chrono::milliseconds duration);
  // How far the manual clock moves at most, in all: a century, so that no deadline (the clock
  // plus at most an int32 of milliseconds) comes near the end of Clock::TimePoint's range
  // (292 years of nanoseconds) and wraps.
  static constexpr std::chrono::milliseconds kManualClockSpan{100LL * 365 * 24 * 3600 * 1000};
  // How much further the manual clock may move: kManualClockSpan minus now_ms().
  [[nodiscard]] std::chrono::milliseconds clock_room() const;

  // Classic protocol. A group id held by the consumer-group protocol gets
  // INCONSISTENT_GROUP_PROTOCOL from JoinGroup and UNKNOWN_MEMBER_ID from the others.
  void join_group(JoinGroupParams params, JoinGroupCallback done);
  void sync_group(SyncGroupParams params, SyncGroupCallback done);
  GroupError heartbeat(std::string_view group_id, std::int32_t generation_id,
                       std::string_view member_id,
                       std::optional<std::string_view> group_instance_id);
  LeaveGroupResult leave_group(std::string_view group_id,
                               const std::vector<LeavingMember>& members);
  [[nodiscard]] GroupSummary describe_group(std::string_view group_id);

  // Consumer-group protocol. A classic group with members gets GROUP_ID_NOT_FOUND ("not a
  // consumer group"); an empty one is taken over with its offsets.
  ConsumerGroupHeartbeatResult consumer_group_heartbeat(const ConsumerGroupHeartbeatParams& params);
  [[nodiscard]] ConsumerGroupDescription describe_consumer_group(std::string_view group_id);

  // Both protocols: offsets go to the coordinator holding the group (the classic one for a
  // group that does not exist yet); the listing holds every group of both, ordered by id,
  // with its type ("classic" or "consumer"). A commit stamps each offset that has no
  // commit_timestamp_ms (-1) with the wall clock.
  OffsetCommitResult commit_offsets(const OffsetCommitParams& params);
  GroupOffsetFetchResult fetch_offsets(const GroupOffsetFetch& fetch);
  struct Listing {
    GroupListing group;
    std::string_view type;  // "classic" or "consumer"
  };
  [[nodiscard]] std::vector<Listing> list_groups();

  // Deletion, routed as offsets are (coordinator_service_delete.cc): DeleteGroups and
  // OffsetDelete for one group (GROUP_ID_NOT_FOUND when neither coordinator holds it), and
  // the committed offsets of a deleted topic in every group of both.
  GroupError delete_group(std::string_view group_id);
  OffsetDeleteResult delete_offsets(std::string_view group_id,
                                    const std::vector<TopicPartition>& partitions);
  void delete_topic_offsets(std::string_view topic);

  // Tells `observer` (nullptr: no one) what happens to the groups of the three coordinators
  // from now on (group_observer.h). It must outlive the service, or be replaced first.
  void set_observer(GroupObserver* observer);

  // Writes the groups' records to `topic` from now on (nullptr: nowhere, the default). It
  // must outlive the service, or be replaced first.
  void set_offsets_topic(CoordinatorTopic* topic) { records_.set_topic(topic); }
  [[nodiscard]] CoordinatorTopic* offsets_topic() const { return records_.topic(); }

  // Loading a partition of __consumer_offsets (offsets_loader.h).
  // unload_partition(): forgets the groups whose records live in `partition` of the offsets
  // topic, with their offsets, writing no record (Kafka's unloading when a coordinator moves
  // away): classic and consumer groups, members and all (parked JoinGroup and SyncGroup
  // calls get NOT_COORDINATOR). Share groups keep no records there and stay. Returns how
  // many groups went; without an offsets topic, none.
  std::size_t unload_partition(std::int32_t partition);
  // load_classic_group() and load_consumer_group(): create a group as read from the log
  // (GroupCoordinator::load_group, ConsumerGroupCoordinator::load_group), writing no
  // record. INVALID_GROUP_ID also when another protocol's group holds the id.
  GroupError load_classic_group(LoadedClassicGroup group);
  GroupError load_consumer_group(LoadedConsumerGroup group);
  // restore_offsets(): stores `offsets` (as read from the log, timestamps and leader epochs
  // included) for `group_id` in the classic coordinator, creating the group if it does not
  // exist, without fencing and without writing records. Returns the coordinator's answer
  // (POLICY_VIOLATION or COORDINATOR_LOAD_IN_PROGRESS when a limit refuses it; then nothing
  // is stored).
  OffsetCommitResult restore_offsets(std::string_view group_id,
                                     std::vector<PartitionOffset> offsets);

  GroupCoordinator& classic() { return classic_; }
  ConsumerGroupCoordinator& consumer() { return consumer_; }

  // Share groups (KIP-932). A group id held by a classic or consumer group gets
  // GROUP_ID_NOT_FOUND ("not a share group"), and a share group's id is refused by the
  // other protocols. The other calls on share groups go to share() directly, between
  // begin_share_call() and finish_call() (ShareFetch acquires partition by partition).
  ShareGroupHeartbeatResult share_group_heartbeat(const ShareGroupHeartbeatParams& params);
  ShareGroupDescription describe_share_group(std::string_view group_id);
  ShareGroupCoordinator& share() { return share_; }
  void begin_share_call() { share_stored_bytes(); }
  // Ends every public call: writes the records the call produced, then rearm().
  void finish_call();

 private:
  // Wakes the expiry timer if a deadline moved earlier than the one it waits for.
  void rearm();
  // Waits for the next deadline and applies what is due, for as long as the io_context runs.
  asio::awaitable<void> run_expiries();
  [[nodiscard]] std::optional<Clock::TimePoint> next_deadline() const;
  // Sets each coordinator's bound to what the other leaves of the shared groups budget.
  void share_stored_bytes();
  // The partitions of `group_id` with a committed offset, in either coordinator.
  [[nodiscard]] std::vector<TopicPartition> committed_partitions(std::string_view group_id) const;
  // Milliseconds since the epoch, for commit timestamps and records.
  [[nodiscard]] static std::int64_t wall_clock_ms();

  std::size_t stored_bytes_budget_ = 0;  // both coordinators together; 0: no bound
  SteadyClock steady_clock_;
  std::size_t held_bytes_ = 0;  // open transactions and the playground, in the groups' share
  ManualClock manual_clock_;
  const Clock& clock_;  // one of the two above
  Clock::TimePoint created_at_;
  // Declared before the coordinators, which report to them until they are destroyed.
  GroupRecordWriter records_;    // the records of what the coordinators do
  GroupObserverList observers_;  // records_, then the observer set_observer() gave
  GroupCoordinator classic_;
  ConsumerGroupCoordinator consumer_;
  ShareGroupCoordinator share_;
  bool running_ = false;                 // run_expiries() is spawned and not destroyed
  asio::steady_timer* timer_ = nullptr;  // run_expiries()'s timer, once it runs
  Clock::TimePoint armed_for_ = Clock::TimePoint::max();  // what timer_ waits for
};

}  // namespace kgroups::broker
