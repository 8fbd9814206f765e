// SPDX-License-Identifier: Apache-2.0
//
// ReplayTracker: sees records of a partition delivered again to a consumer group — after a
// rebalance or a crash, a member starts from the group's committed offset, below what the
// group was already sent — and publishes each such delivery as a records_replayed event
// (docs/HTTP-API.md's "Events" says the rule and its limits).
//
// Fetch names no group, so a delivery is attributed by its partition and client: it counts
// for every group whose current assignment holds the partition and that has a member with
// the fetch's client id (and host, when the member recorded one). Per (group, partition) the
// tracker keeps the mark: one past the highest offset delivered to the group. A delivery
// [fetch offset, end) that starts below the mark is a replay of [fetch offset, min(end,
// mark)), unless the group's previous delivery of that partition went to the same connection
// from the same fetch offset (a client asking again for records whose answer it dropped).
//
// Cost on the fetch path: one hash lookup by (topic, partition) without allocating; the
// groups holding it, their members compared by client id. Memory: one entry per existing
// partition in some group's current assignment, and one mark per existing partition a group
// was assigned since the coordinator created it (so at most the cluster's partitions per
// group); a group's marks go when it is deleted or forgotten (no members, no
// offsets), a topic's marks when it is deleted. Marks and assignment entries are charged to
// the memory set by set_memory_charge() (the broker's: the groups' share of --max-memory) as
// they are made, and given back as they go; a partition that does not fit is not tracked
// (untracked() counts them), and its deliveries publish no replay. A mark names its owner by
// the member's serial number, not a copy of its id.
// Not thread-safe: called on the broker's thread. `log` must outlive the tracker.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "broker/coordinator/group_observer.h"
#include "broker/coordinator/string_hash.h"
#include "broker/events/event_log.h"
#include "broker/runtime/memory_charge.h"
#include "broker/storage/cluster.h"
#include "broker/storage/fetch_delivery_observer.h"

namespace kgroups::broker {

class ReplayTracker : public GroupObserver, public FetchDeliveryObserver {
 public:
  // `cluster` says which partitions exist: an assignment's partitions that do not (a leader
  // may send any bytes in SyncGroup) are not tracked, so they cost nothing per partition.
  // Both must outlive the tracker.
  ReplayTracker(EventLog& log, const Cluster& cluster) : log_(log), cluster_(cluster) {}

  ReplayTracker(const ReplayTracker&) = delete;
  ReplayTracker& operator=(const ReplayTracker&) = delete;

  void on_member_joined(GroupType type, std::string_view group_id,
                        const ObservedMember& member) override;
  void on_member_left(GroupType type, std::string_view group_id, const ObservedMember& member,
                      std::string_view reason) override;
  void on_member_expired(GroupType type, std::string_view group_id, const ObservedMember& member,
                         std::string_view reason) override;
  void on_rebalance_completed(const ObservedRebalance& rebalance) override;
  void on_group_deleted(GroupType type, std::string_view group_id) override;
  void on_group_forgotten(GroupType type, std::string_view group_id) override;

  // Publishes records_replayed for each group the delivery counts for that was already sent
  // records of the partition beyond `fetch_offset`, and raises those groups' marks.
  void on_records_delivered(const FetchingClient& client, std::string_view topic,
                            std::int32_t partition, std::int64_t fetch_offset,
                            std::int64_t end_offset) override;

  // Forgets every mark of `topic` (it was deleted; a topic created again under its name starts
  // from offset 0).
  void forget_topic(std::string_view topic);

  // Where marks and assignment entries are charged (empty: nowhere). Set it before the first
  // group is seen, or clear it before the charge's owner goes.
  void set_memory_charge(MemoryCharge charge) { charge_ = std::move(charge); }
  // What one mark and one assignment entry of a partition of `topic` are charged.
  static std::size_t mark_bytes(std::string_view topic) { return kMarkBytes + topic.size(); }
  static std::size_t claim_bytes(std::string_view topic) { return kClaimBytes + 2 * topic.size(); }

  // Marks kept, over all groups (for the bound's tests).
  [[nodiscard]] std::size_t mark_count() const;
  // Bytes charged now; partitions of assignments not tracked for want of memory.
  [[nodiscard]] std::size_t held_bytes() const { return held_bytes_; }
  [[nodiscard]] std::uint64_t untracked() const { return untracked_; }
  // Partitions some group's current assignment holds.
  [[nodiscard]] std::size_t assigned_partition_count() const { return claims_.size(); }

 private:
  // A mark's tree node, key and fields with the last connection's "host:port" (a mark keeps
  // the topic name once more); an assignment entry's hash node, claim and list entry (each
  // keeps the topic name).
  static constexpr std::size_t kMarkBytes = 256;
  static constexpr std::size_t kClaimBytes = 192;

  struct Member {
    std::uint64_t serial = 0;  // this tracker's number for it, never reused; 0: none
    std::string member_id;
    std::string client_id;
    std::string client_host;  // "/127.0.0.1"; "" when not recorded
  };
  // What one group was delivered of one partition.
  struct PartitionMark {
    std::int64_t delivered_end = -1;      // one past the highest offset delivered; -1: none
    std::int64_t last_fetch_offset = -1;  // the fetch offset of the last delivery
    std::string last_peer;                // the connection ("host:port") of the last delivery
    std::uint64_t owner = 0;  // serial of the member the current assignment gives it to; 0: none
  };
  struct TrackedGroup {
    GroupType type = GroupType::kClassic;
    std::string group_id;
    std::int32_t generation = 0;  // of the last completed rebalance
    std::vector<Member> members;
    // Every partition the group was assigned since it was created.
    std::map<TopicPartition, PartitionMark> partitions;
    std::vector<TopicPartition> assigned;  // the current assignment's partitions
    std::size_t mark_bytes = 0;            // charged for `partitions`
  };
  // A group holding a partition in its current assignment.
  struct Claim {
    TrackedGroup* group;
    PartitionMark* mark;  // the group's entry for the partition
  };
  // A (topic, partition) to look the claims up by, without building a TopicPartition.
  struct PartitionRef {
    std::string_view topic;
    std::int32_t partition = 0;
  };
  struct PartitionHash {
    using is_transparent = void;
    std::size_t operator()(PartitionRef ref) const noexcept;
    std::size_t operator()(const TopicPartition& key) const noexcept {
      return (*this)(PartitionRef{key.topic, key.partition});
    }
  };
  struct PartitionEqual {
    using is_transparent = void;
    template <class A, class B>
    bool operator()(const A& a, const B& b) const noexcept {
      return a.partition == b.partition && std::string_view(a.topic) == std::string_view(b.topic);
    }
  };

  TrackedGroup& group_for(GroupType type, std::string_view group_id);
  void forget_member(std::string_view group_id, std::string_view member_id);
  void forget_group(std::string_view group_id);
  // Removes the group's claims on its current assignment.
  void unclaim(TrackedGroup& group);
  // The member of `group` the delivery is attributed to: the partition's owner when its
  // client matches, else the only member whose client matches. `found` tells whether any
  // member matches (several: ambiguous, nullptr returned).
  static const Member* matching_member(const TrackedGroup& group, const PartitionMark& mark,
                                       const FetchingClient& client, bool& found);
  void publish_replay(const TrackedGroup& group, const Member* member, std::string_view topic,
                      std::int32_t partition, std::int64_t from, std::int64_t to);

  bool hold(std::size_t bytes);
  void release(std::size_t bytes);

  EventLog& log_;
  const Cluster& cluster_;
  MemoryCharge charge_;
  std::size_t held_bytes_ = 0;
  std::uint64_t untracked_ = 0;
  std::uint64_t next_serial_ = 0;
  std::unordered_map<std::string, std::unique_ptr<TrackedGroup>, StringHash, std::equal_to<>>
      groups_;
  std::unordered_map<TopicPartition, std::vector<Claim>, PartitionHash, PartitionEqual> claims_;
};

}  // namespace kgroups::broker
