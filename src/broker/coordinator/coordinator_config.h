// SPDX-License-Identifier: Apache-2.0
//
// CoordinatorConfig: the group coordinator's tunables, with Kafka's broker defaults
// except the initial rebalance delay, which is 0 so rebalances are fast and
// deterministic unless a user asks for Kafka's behaviour, and the limits that bound
// what careless or hostile clients can make the coordinator keep.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kgroups::broker {

struct CoordinatorConfig {
  // JoinGroup with a session timeout outside [min, max] gets INVALID_SESSION_TIMEOUT.
  std::int32_t min_session_timeout_ms = 6000;     // group.min.session.timeout.ms
  std::int32_t max_session_timeout_ms = 1800000;  // group.max.session.timeout.ms
  // How long the first rebalance of an Empty group waits for more members
  // (group.initial.rebalance.delay.ms; Kafka's default is 3000). Each wait that saw
  // a new member is followed by another, until the rebalance timeout is used up.
  std::int32_t initial_rebalance_delay_ms = 0;
  // How long a brand-new member may stay parked in its first JoinGroup before it
  // is dropped (Kafka's NewMemberJoinTimeoutMs).
  std::int32_t new_member_join_timeout_ms = 300000;

  // Limits. A refused call changes nothing, except where said.
  // Groups the coordinator holds; a JoinGroup or OffsetCommit that would create one
  // more gets POLICY_VIOLATION. Kafka: none (bounded by its heap).
  std::size_t max_groups = 10000;
  // Members per group, counting ids handed out with MEMBER_ID_REQUIRED that have not
  // joined yet; a new member joining a full group gets GROUP_MAX_SIZE_REACHED.
  std::size_t max_group_size = 1000;  // group.max.size (Kafka: 2147483647)
  // Bytes in a group id (longer: INVALID_GROUP_ID), a member id (longer:
  // UNKNOWN_MEMBER_ID), a JoinGroup client id, protocol type or group instance id
  // (longer: INVALID_REQUEST). Member ids are the client id, cut to fit, + "-" + a 36-byte
  // UUID, so they never exceed it. At least 37, at most 32767. Kafka: none beyond the
  // wire's int16 string length (32767).
  std::size_t max_id_length = 1024;
  // Bytes a group's members may make it keep: every member's protocol names and
  // metadata plus its assignment. JoinGroup beyond it gets GROUP_MAX_SIZE_REACHED; a
  // leader's SyncGroup beyond it fails every parked SyncGroup with
  // GROUP_MAX_SIZE_REACHED and the group rebalances again. Kafka: the group's record
  // must fit the __consumer_offsets topic's max.message.bytes (1 MiB).
  std::size_t max_group_metadata_bytes = std::size_t{1024} * 1024;
  // Bytes of an OffsetCommit partition's metadata string; a longer one gets
  // OFFSET_METADATA_TOO_LARGE and is not stored.
  std::size_t offset_metadata_max_bytes = 4096;  // offset.metadata.max.bytes (4096)
  // Bytes all groups may keep together, as GroupCoordinator::stored_bytes() counts
  // them (ids, client ids and hosts, protocols, assignments, committed offsets, plus
  // per-entry overhead); 0: unlimited. A call that would grow the total past it gets
  // COORDINATOR_LOAD_IN_PROGRESS (SyncGroup: COORDINATOR_NOT_AVAILABLE). Kafka: none
  // (bounded by its heap).
  std::size_t max_stored_bytes = 0;
};

}  // namespace kgroups::broker
