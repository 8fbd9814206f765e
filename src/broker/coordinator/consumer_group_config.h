// SPDX-License-Identifier: Apache-2.0
//
// ConsumerGroupConfig: the consumer-group (KIP-848) coordinator's tunables, with
// Kafka's group.consumer.* broker defaults, and the limits that bound what careless
// or hostile clients can make it keep (the same ones the classic coordinator has).
#pragma once

#include <cstddef>
#include <cstdint>

namespace kgroups::broker {

struct ConsumerGroupConfig {
  // A member that sends no heartbeat for this long is removed and the group epoch
  // bumped (group.consumer.session.timeout.ms).
  std::int32_t session_timeout_ms = 45000;
  // How often members are told to heartbeat (group.consumer.heartbeat.interval.ms).
  std::int32_t heartbeat_interval_ms = 5000;

  // Limits. A refused call changes nothing.
  // Groups the coordinator holds; a heartbeat or commit that would create one more
  // gets POLICY_VIOLATION.
  std::size_t max_groups = 10000;
  // Members per group; a new member of a full group gets GROUP_MAX_SIZE_REACHED
  // (group.consumer.max.size; Kafka: 2147483647).
  std::size_t max_group_size = 1000;
  // Bytes in a group id (longer: INVALID_GROUP_ID), a member id (longer:
  // UNKNOWN_MEMBER_ID), and an instance id, rack id, client id, client host, assignor
  // name or subscribed topic name (longer: INVALID_REQUEST).
  std::size_t max_id_length = 1024;
  // Topic names a member may subscribe to (more: INVALID_REQUEST).
  std::size_t max_subscribed_topics = 10000;
  // Bytes of an OffsetCommit partition's metadata string; a longer one gets
  // OFFSET_METADATA_TOO_LARGE and is not stored (offset.metadata.max.bytes).
  std::size_t offset_metadata_max_bytes = 4096;
  // Bytes all groups may keep: members' ids and subscribed topic names
  // (consumer_member_bytes) and committed offsets; a heartbeat or commit that would keep
  // more gets COORDINATOR_LOAD_IN_PROGRESS (retriable) and changes nothing. 0: no bound.
  std::size_t max_stored_bytes = 0;
};

}  // namespace kgroups::broker
