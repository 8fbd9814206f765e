// SPDX-License-Identifier: Apache-2.0
//
// EventRecorder: turns what the group coordinators and the Cluster observe into the EventLog's
// events, one JSON object each (the event types and their fields are docs/HTTP-API.md's
// "Events"): member_joined, member_left, member_expired, rebalance_started,
// rebalance_completed, offsets_committed, group_deleted, records_released (a share group's
// records going back for redelivery), topic_created, topic_deleted, and of
// the cluster (--brokers): broker_stopped, broker_started, broker_isolated, leader_elected,
// isr_shrunk, isr_expanded, reassignment_started, reassignment_completed,
// reassignment_cancelled. The Broker connects it to both coordinators, its Cluster and its
// ReplicationController.
// Not thread-safe: called on the broker's thread. `log` must outlive the recorder.
#pragma once

#include "broker/coordinator/group_observer.h"
#include "broker/events/event_log.h"
#include "broker/storage/replication_observer.h"
#include "broker/storage/topic_observer.h"

namespace kgroups::broker {

class EventRecorder : public GroupObserver, public TopicObserver, public ReplicationObserver {
 public:
  explicit EventRecorder(EventLog& log) : log_(log) {}

  void on_member_joined(GroupType type, std::string_view group_id,
                        const ObservedMember& member) override;
  void on_member_left(GroupType type, std::string_view group_id, const ObservedMember& member,
                      std::string_view reason) override;
  void on_member_expired(GroupType type, std::string_view group_id, const ObservedMember& member,
                         std::string_view reason) override;
  void on_rebalance_started(GroupType type, std::string_view group_id, std::int32_t generation,
                            std::string_view reason) override;
  void on_rebalance_completed(const ObservedRebalance& rebalance) override;
  void on_offsets_committed(GroupType type, std::string_view group_id, std::string_view member_id,
                            std::span<const PartitionOffset> offsets) override;
  void on_group_deleted(GroupType type, std::string_view group_id) override;
  void on_records_released(const ObservedRelease& release) override;

  void on_topic_created(const StoredTopic& topic) override;
  void on_topic_deleted(const StoredTopic& topic) override;

  void on_broker_state(std::int32_t node, BrokerState state) override;
  void on_leader_elected(const StoredTopic& topic, std::int32_t partition, std::int32_t leader,
                         std::int32_t epoch, bool unclean, std::int64_t lost_records) override;
  void on_isr_changed(const StoredTopic& topic, std::int32_t partition,
                      std::span<const std::int32_t> isr, bool shrunk) override;
  void on_reassignment(const StoredTopic& topic, std::int32_t partition, ReassignmentStep step,
                       const PartitionReassignment& reassignment,
                       std::span<const std::int32_t> replicas) override;

 private:
  void publish_member_event(std::string_view event_type, GroupType type, std::string_view group_id,
                            const ObservedMember& member, std::string_view reason);

  EventLog& log_;
};

}  // namespace kgroups::broker
