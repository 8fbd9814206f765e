// SPDX-License-Identifier: Apache-2.0
//
// ApiKey: the Kafka request types this codec knows, with Kafka's numbers. A frame may carry
// any int16 key; cast it and compare, since unknown keys are valid values of the enum too.
// Thread-safe: constants only.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace kgroups::protocol {

enum class ApiKey : std::int16_t {
  kProduce = 0,
  kFetch = 1,
  kListOffsets = 2,
  kMetadata = 3,
  kOffsetCommit = 8,
  kOffsetFetch = 9,
  kFindCoordinator = 10,
  kJoinGroup = 11,
  kHeartbeat = 12,
  kLeaveGroup = 13,
  kSyncGroup = 14,
  kDescribeGroups = 15,
  kListGroups = 16,
  kSaslHandshake = 17,
  kApiVersions = 18,
  kCreateTopics = 19,
  kDeleteTopics = 20,
  kDeleteRecords = 21,
  kInitProducerId = 22,
  kOffsetForLeaderEpoch = 23,
  kAddPartitionsToTxn = 24,
  kAddOffsetsToTxn = 25,
  kEndTxn = 26,
  kTxnOffsetCommit = 28,
  kDescribeAcls = 29,
  kCreateAcls = 30,
  kDeleteAcls = 31,
  kDescribeConfigs = 32,
  kAlterConfigs = 33,
  kDescribeLogDirs = 35,
  kSaslAuthenticate = 36,
  kCreatePartitions = 37,
  kDeleteGroups = 42,
  kElectLeaders = 43,
  kIncrementalAlterConfigs = 44,
  kAlterPartitionReassignments = 45,
  kListPartitionReassignments = 46,
  kOffsetDelete = 47,
  kDescribeUserScramCredentials = 50,
  kAlterUserScramCredentials = 51,
  kDescribeCluster = 60,
  kConsumerGroupHeartbeat = 68,
  kConsumerGroupDescribe = 69,
  kShareGroupHeartbeat = 76,
  kShareGroupDescribe = 77,
  kShareFetch = 78,
  kShareAcknowledge = 79,
  kDescribeShareGroupOffsets = 90,
  kAlterShareGroupOffsets = 91,
  kDeleteShareGroupOffsets = 92,
};

// Kafka's name of the API ("JoinGroup"), or "Unknown" for a key this enum does not list.
std::string_view api_name(ApiKey key);

// The key Kafka names `name` ("JoinGroup", exact case), or nullopt for a name this enum does
// not list.
std::optional<ApiKey> api_key_from_name(std::string_view name);

}  // namespace kgroups::protocol
