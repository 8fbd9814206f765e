// SPDX-License-Identifier: Apache-2.0
//
// GroupView: one group as the control endpoint shows it (GET /v1/groups/{id}, /metrics):
// state, protocol, generation, leader, the broker that coordinates it, members with their
// assignments, and committed offsets with the end offset and lag of each partition — read from
// both coordinators and the cluster in one go, as plain values. A classic member's assignment
// is decoded from the consumer protocol's bytes when the group's protocol type is "consumer".
// A share group (KIP-932) has no committed offsets: its view holds its share-partitions
// instead (start and end offsets, records in flight by state, totals), its members' records
// held, and the group's share settings.
// Not thread-safe: build it on the broker's network thread; the result is a plain value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "broker/coordinator/consumer_protocol.h"
#include "broker/node/broker.h"

namespace kgroups::broker::http {

struct GroupMemberView {
  std::string member_id;
  std::optional<std::string> instance_id;
  std::string client_id;
  std::string host;
  // nullopt: not known (a classic group of another protocol type, or bytes that do not
  // decode).
  std::optional<std::vector<AssignedTopicPartitions>> assignment;
  // Share groups: records the member has acquired and not acknowledged; nullopt otherwise.
  std::optional<std::int64_t> records_held;
};

struct GroupPartitionView {
  std::string topic;
  std::int32_t partition = 0;
  std::optional<std::int64_t> committed;   // nullopt: nothing committed
  std::optional<std::int64_t> end_offset;  // the high watermark; nullopt: no such partition
  std::optional<std::int64_t> lag;  // end - committed (or - log start); nullopt: no partition
  std::string metadata;
};

struct GroupView {
  std::string group_id;
  std::string type;  // "classic", "consumer" or "share"
  std::string state;
  std::string protocol_type;
  std::string protocol;         // classic: the selected assignor; consumer: the server assignor
  std::int32_t generation = 0;  // classic: generation id; consumer: group epoch
  std::optional<std::string> leader;
  // The broker that coordinates the group now (Broker::coordinator_for: the leader of its
  // __consumer_offsets partition); -1 when none can.
  std::int32_t coordinator = -1;
  std::vector<GroupMemberView> members;  // by member id
  // Every committed partition and every assigned one, by topic then partition: the first
  // max_offset_rows of them (view_group()).
  std::vector<GroupPartitionView> offsets;
  std::size_t offsets_total = 0;  // how many there are in all
  std::int64_t lag = 0;           // the sum over all of them
  // Share groups only: every share-partition, by topic then partition (view_group(); empty
  // in view_groups()), and the settings the group's records obey.
  std::vector<SharePartitionDescription> share_partitions;
  std::optional<ShareGroupSettings> share_settings;
};

// The group, or nullopt if no coordinator holds it. Its offsets list at most
// `max_offset_rows` rows (the answer's size is bounded by what the caller allows, whatever the
// group holds); offsets_total and lag count them all.
std::optional<GroupView> view_group(Broker& broker, std::string_view group_id,
                                    std::size_t max_offset_rows = SIZE_MAX);

// Every group of the coordinators, by group id, without offsets or members' assignments
// (what GET /v1/groups summarizes): its cost does not grow with the groups' partitions.
std::vector<GroupView> view_groups(Broker& broker);

}  // namespace kgroups::broker::http
