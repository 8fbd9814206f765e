// SPDX-License-Identifier: Apache-2.0
//
// AdminClient: the few admin calls the kgroups CLI makes, over the Kafka protocol, to
// kgroupsd or to a real Kafka cluster. It starts from one bootstrap broker, learns the
// others from Metadata, sends ListOffsets to each partition's leader, ListGroups to every
// broker, and the group calls to the group's coordinator (FindCoordinator; retried while the
// coordinator is loading, unavailable or has moved). Connections are opened on first use
// and kept for the client's life. Every call is bounded by the deadline given at
// construction. Failures throw KafkaClientError with a message for the user.
// Not thread-safe: one caller at a time.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "broker/coordinator/consumer_protocol.h"
#include "kafka_client/broker_address.h"
#include "kafka_client/broker_connection.h"
#include "protocol/error_code.h"

namespace kgroups::cli {

// A member's assigned partitions of one topic, as the broker's decoder reads them.
using AssignedTopic = broker::AssignedTopicPartitions;

struct TopicPartitionId {
  std::string topic;
  std::int32_t partition = 0;

  bool operator==(const TopicPartitionId&) const = default;
  // Topic, then partition: the order of every map and listing keyed by partition.
  friend bool operator<(const TopicPartitionId& a, const TopicPartitionId& b) {
    return std::tie(a.topic, a.partition) < std::tie(b.topic, b.partition);
  }
};

struct PartitionMetadata {
  std::int32_t partition = 0;
  std::int32_t leader = -1;  // node id; -1 while the partition has no leader
  protocol::ErrorCode error = protocol::ErrorCode::kNone;
};

struct TopicMetadata {
  std::string name;
  protocol::ErrorCode error = protocol::ErrorCode::kNone;  // kUnknownTopicOrPartition: absent
  bool is_internal = false;
  std::vector<PartitionMetadata> partitions;  // ascending partition order
};

struct ClusterMetadata {
  std::map<std::int32_t, BrokerAddress> brokers;  // by node id
  std::vector<TopicMetadata> topics;              // in name order
};

struct ListedGroup {
  std::string group_id;
  std::string protocol_type;  // "consumer" for consumer groups; empty for offsets-only groups
  std::string state;          // empty when the broker's ListGroups version predates states
  std::string type;           // "classic", "consumer" or "share"; empty before ListGroups v5
};

struct GroupMemberDescription {
  std::string member_id;
  std::optional<std::string> group_instance_id;
  std::string client_id;
  std::string host;
  // nullopt when the group's protocol is not "consumer" or the bytes do not decode.
  std::optional<std::vector<AssignedTopic>> assignment;
};

struct GroupDescription {
  std::string group_id;
  std::string state;  // Kafka's names: Empty, Stable, PreparingRebalance, ..., Dead
  std::string protocol_type;
  std::string protocol;  // the assignor the group chose
  std::vector<GroupMemberDescription> members;
};

// A share group (KIP-932) as ShareGroupDescribe shows it.
struct DescribedShareMember {
  std::string member_id;
  std::int32_t member_epoch = 0;
  std::string client_id;
  std::string host;
  std::vector<AssignedTopic> assignment;
};

struct DescribedShareGroup {
  std::string group_id;
  std::string state;  // "Empty", "Stable", or "Dead" when the coordinator does not know it
  std::int32_t group_epoch = 0;
  std::string assignor;
  std::vector<DescribedShareMember> members;
};

// One share-partition's start offset (DescribeShareGroupOffsets): the first offset the group
// has not finished delivering, and the records from it to the end (-1: not known).
struct ShareStartOffset {
  std::int64_t start_offset = -1;
  std::int64_t lag = -1;
};

enum class OffsetSpec { kEarliest, kLatest };

using PartitionOffsets = std::map<TopicPartitionId, std::int64_t>;

// What one Fetch gave for one partition: its error, high watermark and the record batches
// (the bytes as the broker sent them, magic 2).
struct FetchedPartition {
  protocol::ErrorCode error = protocol::ErrorCode::kNone;
  std::int64_t high_watermark = -1;
  std::vector<std::uint8_t> records;
};

class AdminClient {
 public:
  // Connects to `bootstrap` (and negotiates versions) right away, so a broker that is not
  // there fails here. Throws KafkaClientError.
  AdminClient(BrokerAddress bootstrap, Deadline deadline);

  // The brokers and the given topics (every topic when `topics` is nullopt). A topic that
  // does not exist comes back with kUnknownTopicOrPartition; none is created.
  ClusterMetadata metadata(const std::optional<std::vector<std::string>>& topics);

  // Every group of every broker, in group id order.
  std::vector<ListedGroup> list_groups();

  // The group as its coordinator describes it. A group the coordinator does not know comes
  // back in state "Dead" with no members.
  GroupDescription describe_group(const std::string& group_id);

  // The share group as its coordinator describes it (ShareGroupDescribe); state "Dead" when
  // it knows no such share group.
  DescribedShareGroup describe_share_group(const std::string& group_id);

  // Each share-partition's start offset (DescribeShareGroupOffsets, every partition the
  // group has state for).
  std::map<TopicPartitionId, ShareStartOffset> share_start_offsets(const std::string& group_id);

  // The group's committed offsets (partitions with no committed offset are left out).
  PartitionOffsets committed_offsets(const std::string& group_id);

  // The earliest (log start) or latest (end) offset of each partition, asked of its leader.
  // Partitions the cluster does not have (e.g. of a deleted topic) are left out.
  PartitionOffsets list_offsets(const std::vector<TopicPartitionId>& partitions, OffsetSpec spec);

  // Reads records of `partition` from `offset` on (at most about `max_bytes`) from its
  // leader, as a read_uncommitted consumer without a group (Fetch v4-12). Throws
  // KafkaClientError when the partition has no leader or the broker fails.
  FetchedPartition fetch(const TopicPartitionId& partition, std::int64_t offset,
                         std::int32_t max_bytes);

  // Commits `offsets` for the group as an admin tool does (generation -1, empty member id):
  // the coordinator accepts it only while the group has no members. Throws
  // KafkaClientError naming each partition the coordinator refused.
  void commit_offsets(const std::string& group_id, const PartitionOffsets& offsets);

 private:
  BrokerConnection& connection_to(const BrokerAddress& address);
  BrokerConnection& coordinator_for(const std::string& group_id);
  // Forgets the cached coordinator and waits a moment before the next attempt; throws
  // KafkaClientError once the deadline has passed.
  void retry_coordinator(const std::string& group_id, protocol::ErrorCode error);

  Deadline deadline_;
  BrokerAddress bootstrap_;
  std::map<std::string, std::unique_ptr<BrokerConnection>> connections_;  // by address
  std::map<std::string, BrokerAddress> coordinators_;                     // by group id
};

// "UNKNOWN_TOPIC_OR_PARTITION (3)": how the CLI's messages name an error code.
std::string describe_error(protocol::ErrorCode error);

// True for the errors after which a group call is retried at a freshly found coordinator:
// COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE and NOT_COORDINATOR.
bool is_retriable_coordinator_error(protocol::ErrorCode error);

}  // namespace kgroups::cli
