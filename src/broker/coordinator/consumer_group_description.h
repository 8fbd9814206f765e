// SPDX-License-Identifier: Apache-2.0
//
// What ConsumerGroupDescribe (API 69) and offset fetches report about consumer
// groups: plain snapshots copied out of the ConsumerGroupCoordinator, so they stay
// valid after later calls. Value types; thread-safe as any value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "broker/coordinator/group_error.h"
#include "broker/coordinator/offset_store.h"
#include "broker/coordinator/topic_id.h"

namespace kgroups::broker {

// One topic's partitions with the topic's name, as ConsumerGroupDescribe carries them.
struct NamedTopicPartitions {
  TopicId topic_id{};
  std::string topic_name;
  std::vector<std::int32_t> partitions;  // ascending

  bool operator==(const NamedTopicPartitions&) const = default;
};

struct ConsumerMemberDescription {
  std::string member_id;
  std::optional<std::string> instance_id;
  std::optional<std::string> rack_id;
  std::int32_t member_epoch = 0;
  std::string client_id;
  std::string client_host;
  std::vector<std::string> subscribed_topic_names;  // sorted
  // The partitions the member may own now, and its target. Topics the catalog no
  // longer knows are left out (they have no name to report).
  std::vector<NamedTopicPartitions> assignment;
  std::vector<NamedTopicPartitions> target_assignment;
  // Not on the wire: where the member stands ("STABLE", "UNREVOKED_PARTITIONS", ...)
  // and what it must still revoke, for logs and tests.
  std::string member_state;
  std::vector<NamedTopicPartitions> pending_revocation;
};

struct ConsumerGroupDescription {
  // NONE; GROUP_ID_NOT_FOUND for a group the coordinator does not hold; INVALID_GROUP_ID
  // for an id longer than max_id_length. The other fields are empty unless NONE.
  GroupError error = GroupError::kNone;
  std::string error_message;
  std::string group_id;
  std::string group_state;  // "Empty", "Assigning", "Reconciling", "Stable"
  std::int32_t group_epoch = 0;
  std::int32_t assignment_epoch = 0;
  std::string assignor_name;
  std::vector<ConsumerMemberDescription> members;  // by member id
};

// OffsetFetch of a consumer group, v9 form: a member id and epoch are checked when
// given; without them (member_id nullopt, epoch < 0) anyone may fetch.
struct ConsumerOffsetFetchParams {
  std::string group_id{};
  std::optional<std::string> member_id{};
  std::int32_t member_epoch = -1;
  std::optional<std::vector<TopicPartition>> partitions{};  // nullopt: every committed one
};

struct ConsumerOffsetFetchResult {
  // NONE, UNKNOWN_MEMBER_ID (not a member), STALE_MEMBER_EPOCH, INVALID_GROUP_ID.
  GroupError error = GroupError::kNone;
  std::vector<PartitionOffset> offsets;  // {-1, ""} where nothing was committed
};

}  // namespace kgroups::broker
