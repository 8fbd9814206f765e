// SPDX-License-Identifier: Apache-2.0

#include "protocol/api_key.h"

namespace kgroups::protocol {

std::string_view api_name(ApiKey key) {
  switch (key) {
    case ApiKey::kProduce:
      return "Produce";
    case ApiKey::kFetch:
      return "Fetch";
    case ApiKey::kListOffsets:
      return "ListOffsets";
    case ApiKey::kMetadata:
      return "Metadata";
    case ApiKey::kOffsetCommit:
      return "OffsetCommit";
    case ApiKey::kOffsetFetch:
      return "OffsetFetch";
    case ApiKey::kFindCoordinator:
      return "FindCoordinator";
    case ApiKey::kJoinGroup:
      return "JoinGroup";
    case ApiKey::kHeartbeat:
      return "Heartbeat";
    case ApiKey::kLeaveGroup:
      return "LeaveGroup";
    case ApiKey::kSyncGroup:
      return "SyncGroup";
    case ApiKey::kDescribeGroups:
      return "DescribeGroups";
    case ApiKey::kListGroups:
      return "ListGroups";
    case ApiKey::kSaslHandshake:
      return "SaslHandshake";
    case ApiKey::kApiVersions:
      return "ApiVersions";
    case ApiKey::kCreateTopics:
      return "CreateTopics";
    case ApiKey::kDeleteTopics:
      return "DeleteTopics";
    case ApiKey::kDeleteRecords:
      return "DeleteRecords";
    case ApiKey::kInitProducerId:
      return "InitProducerId";
    case ApiKey::kOffsetForLeaderEpoch:
      return "OffsetForLeaderEpoch";
    case ApiKey::kDescribeConfigs:
      return "DescribeConfigs";
    case ApiKey::kAlterConfigs:
      return "AlterConfigs";
    case ApiKey::kIncrementalAlterConfigs:
      return "IncrementalAlterConfigs";
    case ApiKey::kCreatePartitions:
      return "CreatePartitions";
    case ApiKey::kDeleteGroups:
      return "DeleteGroups";
    case ApiKey::kOffsetDelete:
      return "OffsetDelete";
    case ApiKey::kDescribeUserScramCredentials:
      return "DescribeUserScramCredentials";
    case ApiKey::kAlterUserScramCredentials:
      return "AlterUserScramCredentials";
    case ApiKey::kAddPartitionsToTxn:
      return "AddPartitionsToTxn";
    case ApiKey::kAddOffsetsToTxn:
      return "AddOffsetsToTxn";
    case ApiKey::kEndTxn:
      return "EndTxn";
    case ApiKey::kTxnOffsetCommit:
      return "TxnOffsetCommit";
    case ApiKey::kDescribeAcls:
      return "DescribeAcls";
    case ApiKey::kCreateAcls:
      return "CreateAcls";
    case ApiKey::kDeleteAcls:
      return "DeleteAcls";
    case ApiKey::kDescribeLogDirs:
      return "DescribeLogDirs";
    case ApiKey::kSaslAuthenticate:
      return "SaslAuthenticate";
    case ApiKey::kElectLeaders:
      return "ElectLeaders";
    case ApiKey::kAlterPartitionReassignments:
      return "AlterPartitionReassignments";
    case ApiKey::kListPartitionReassignments:
      return "ListPartitionReassignments";
    case ApiKey::kDescribeCluster:
      return "DescribeCluster";
    case ApiKey::kConsumerGroupHeartbeat:
      return "ConsumerGroupHeartbeat";
    case ApiKey::kConsumerGroupDescribe:
      return "ConsumerGroupDescribe";
    case ApiKey::kShareGroupHeartbeat:
      return "ShareGroupHeartbeat";
    case ApiKey::kShareGroupDescribe:
      return "ShareGroupDescribe";
    case ApiKey::kShareFetch:
      return "ShareFetch";
    case ApiKey::kShareAcknowledge:
      return "ShareAcknowledge";
    case ApiKey::kDescribeShareGroupOffsets:
      return "DescribeShareGroupOffsets";
    case ApiKey::kAlterShareGroupOffsets:
      return "AlterShareGroupOffsets";
    case ApiKey::kDeleteShareGroupOffsets:
      return "DeleteShareGroupOffsets";
  }
  return "Unknown";
}

std::optional<ApiKey> api_key_from_name(std::string_view name) {
  // Kafka's keys are small numbers; every key this enum lists is below 100.
  for (int number = 0; number < 100; ++number) {
    const auto key = static_cast<ApiKey>(number);
    if (api_name(key) == name && name != "Unknown") return key;
  }
  return std::nullopt;
}

}  // namespace kgroups::protocol
