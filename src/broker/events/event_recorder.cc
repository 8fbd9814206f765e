// SPDX-License-Identifier: Apache-2.0
#include "broker/events/event_recorder.h"

#include <nlohmann/json.hpp>

#include "broker/storage/cluster.h"

namespace kgroups::broker {
namespace {

using Json = nlohmann::ordered_json;

Json group_fields(GroupType type, std::string_view group_id) {
  return Json{{"group_id", group_id}, {"group_type", group_type_name(type)}};
}

Json partitions_json(const std::vector<AssignedTopicPartitions>& topics) {
  Json list = Json::array();
  for (const AssignedTopicPartitions& topic : topics) {
    list.push_back(Json{{"topic", topic.topic}, {"partitions", topic.partitions}});
  }
  return list;
}

}  // namespace

void EventRecorder::publish_member_event(std::string_view event_type, GroupType type,
                                         std::string_view group_id, const ObservedMember& member,
                                         std::string_view reason) {
  Json payload = group_fields(type, group_id);
  payload["member_id"] = member.member_id;
  payload["client_id"] = member.client_id;
  payload["instance_id"] = member.instance_id ? Json(*member.instance_id) : Json(nullptr);
  if (!reason.empty()) payload["reason"] = reason;
  log_.publish(event_type, group_id, payload);
}

void EventRecorder::on_member_joined(GroupType type, std::string_view group_id,
                                     const ObservedMember& member) {
  publish_member_event("member_joined", type, group_id, member, {});
}

void EventRecorder::on_member_left(GroupType type, std::string_view group_id,
                                   const ObservedMember& member, std::string_view reason) {
  publish_member_event("member_left", type, group_id, member, reason);
}

void EventRecorder::on_member_expired(GroupType type, std::string_view group_id,
                                      const ObservedMember& member, std::string_view reason) {
  publish_member_event("member_expired", type, group_id, member, reason);
}

void EventRecorder::on_rebalance_started(GroupType type, std::string_view group_id,
                                         std::int32_t generation, std::string_view reason) {
  Json payload = group_fields(type, group_id);
  payload["generation"] = generation;
  payload["reason"] = reason;
  log_.publish("rebalance_started", group_id, payload);
}

void EventRecorder::on_rebalance_completed(const ObservedRebalance& rebalance) {
  Json payload = group_fields(rebalance.type, rebalance.group_id);
  payload["generation"] = rebalance.generation;
  payload["protocol"] = rebalance.protocol.empty() ? Json(nullptr) : Json(rebalance.protocol);
  payload["leader"] = rebalance.leader_id.empty() ? Json(nullptr) : Json(rebalance.leader_id);
  Json assignment = Json::object();
  for (const ObservedAssignment& member : rebalance.assignment) {
    assignment[std::string(member.member_id)] =
        member.partitions ? partitions_json(*member.partitions) : Json(nullptr);
  }
  payload["assignment"] = std::move(assignment);
  log_.publish("rebalance_completed", rebalance.group_id, payload);
}

void EventRecorder::on_offsets_committed(GroupType type, std::string_view group_id,
                                         std::string_view member_id,
                                         std::span<const PartitionOffset> offsets) {
  if (offsets.empty()) return;
  Json payload = group_fields(type, group_id);
  payload["member_id"] = member_id.empty() ? Json(nullptr) : Json(member_id);
  Json list = Json::array();
  for (const PartitionOffset& offset : offsets) {
    list.push_back(Json{{"topic", offset.topic_partition.topic},
                        {"partition", offset.topic_partition.partition},
                        {"offset", offset.committed.offset}});
  }
  payload["offsets"] = std::move(list);
  log_.publish("offsets_committed", group_id, payload);
}

void EventRecorder::on_group_deleted(GroupType type, std::string_view group_id) {
  log_.publish("group_deleted", group_id, group_fields(type, group_id));
}

void EventRecorder::on_records_released(const ObservedRelease& release) {
  Json payload = group_fields(GroupType::kShare, release.group_id);
  payload["member_id"] = release.member_id.empty() ? Json(nullptr) : Json(release.member_id);
  payload["reason"] = release.reason;
  std::int64_t released = 0;
  std::int64_t archived = 0;
  Json partitions = Json::array();
  for (const ObservedReleasedPartition& partition : release.partitions) {
    released += partition.released;
    archived += partition.archived;
    partitions.push_back(Json{{"topic", partition.topic},
                              {"partition", partition.partition},
                              {"released", partition.released},
                              {"archived", partition.archived}});
  }
  payload["records"] = released + archived;
  payload["released"] = released;
  payload["archived"] = archived;
  payload["partitions"] = std::move(partitions);
  log_.publish("records_released", release.group_id, payload);
}

void EventRecorder::on_topic_created(const StoredTopic& topic) {
  log_.publish("topic_created", {},
               Json{{"topic", topic.name}, {"partitions", topic.partitions.size()}});
}

void EventRecorder::on_topic_deleted(const StoredTopic& topic) {
  log_.publish("topic_deleted", {},
               Json{{"topic", topic.name}, {"partitions", topic.partitions.size()}});
}

void EventRecorder::on_broker_state(std::int32_t node, BrokerState state) {
  const char* type = state == BrokerState::kRunning   ? "broker_started"
                     : state == BrokerState::kStopped ? "broker_stopped"
                                                      : "broker_isolated";
  log_.publish(type, {}, Json{{"broker", node}});
}

void EventRecorder::on_leader_elected(const StoredTopic& topic, std::int32_t partition,
                                      std::int32_t leader, std::int32_t epoch, bool unclean,
                                      std::int64_t lost_records) {
  log_.publish("leader_elected", {},
               Json{{"topic", topic.name},
                    {"partition", partition},
                    {"leader", leader},
                    {"leader_epoch", epoch},
                    {"unclean", unclean},
                    {"lost_records", lost_records}});
}

void EventRecorder::on_isr_changed(const StoredTopic& topic, std::int32_t partition,
                                   std::span<const std::int32_t> isr, bool shrunk) {
  log_.publish(shrunk ? "isr_shrunk" : "isr_expanded", {},
               Json{{"topic", topic.name},
                    {"partition", partition},
                    {"isr", std::vector<std::int32_t>(isr.begin(), isr.end())}});
}

void EventRecorder::on_reassignment(const StoredTopic& topic, std::int32_t partition,
                                    ReassignmentStep step,
                                    const PartitionReassignment& reassignment,
                                    std::span<const std::int32_t> replicas) {
  const char* type = step == ReassignmentStep::kStarted     ? "reassignment_started"
                     : step == ReassignmentStep::kCompleted ? "reassignment_completed"
                                                            : "reassignment_cancelled";
  log_.publish(type, {},
               Json{{"topic", topic.name},
                    {"partition", partition},
                    {"target_replicas", reassignment.target},
                    {"adding_replicas", reassignment.adding},
                    {"removing_replicas", reassignment.removing},
                    {"replicas", std::vector<std::int32_t>(replicas.begin(), replicas.end())}});
}

}  // namespace kgroups::broker
