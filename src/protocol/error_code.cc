// SPDX-License-Identifier: Apache-2.0

#include "protocol/error_code.h"

namespace kgroups::protocol {

std::string_view error_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::kUnknownServerError:
      return "UNKNOWN_SERVER_ERROR";
    case ErrorCode::kNone:
      return "NONE";
    case ErrorCode::kOffsetOutOfRange:
      return "OFFSET_OUT_OF_RANGE";
    case ErrorCode::kCorruptMessage:
      return "CORRUPT_MESSAGE";
    case ErrorCode::kUnknownTopicOrPartition:
      return "UNKNOWN_TOPIC_OR_PARTITION";
    case ErrorCode::kInvalidFetchSize:
      return "INVALID_FETCH_SIZE";
    case ErrorCode::kLeaderNotAvailable:
      return "LEADER_NOT_AVAILABLE";
    case ErrorCode::kNotLeaderForPartition:
      return "NOT_LEADER_OR_FOLLOWER";
    case ErrorCode::kRequestTimedOut:
      return "REQUEST_TIMED_OUT";
    case ErrorCode::kBrokerNotAvailable:
      return "BROKER_NOT_AVAILABLE";
    case ErrorCode::kReplicaNotAvailable:
      return "REPLICA_NOT_AVAILABLE";
    case ErrorCode::kMessageTooLarge:
      return "MESSAGE_TOO_LARGE";
    case ErrorCode::kStaleControllerEpoch:
      return "STALE_CONTROLLER_EPOCH";
    case ErrorCode::kOffsetMetadataTooLarge:
      return "OFFSET_METADATA_TOO_LARGE";
    case ErrorCode::kNetworkException:
      return "NETWORK_EXCEPTION";
    case ErrorCode::kCoordinatorLoadInProgress:
      return "COORDINATOR_LOAD_IN_PROGRESS";
    case ErrorCode::kCoordinatorNotAvailable:
      return "COORDINATOR_NOT_AVAILABLE";
    case ErrorCode::kNotCoordinator:
      return "NOT_COORDINATOR";
    case ErrorCode::kInvalidTopicException:
      return "INVALID_TOPIC_EXCEPTION";
    case ErrorCode::kRecordListTooLarge:
      return "RECORD_LIST_TOO_LARGE";
    case ErrorCode::kNotEnoughReplicas:
      return "NOT_ENOUGH_REPLICAS";
    case ErrorCode::kNotEnoughReplicasAfterAppend:
      return "NOT_ENOUGH_REPLICAS_AFTER_APPEND";
    case ErrorCode::kInvalidRequiredAcks:
      return "INVALID_REQUIRED_ACKS";
    case ErrorCode::kIllegalGeneration:
      return "ILLEGAL_GENERATION";
    case ErrorCode::kInconsistentGroupProtocol:
      return "INCONSISTENT_GROUP_PROTOCOL";
    case ErrorCode::kInvalidGroupId:
      return "INVALID_GROUP_ID";
    case ErrorCode::kUnknownMemberId:
      return "UNKNOWN_MEMBER_ID";
    case ErrorCode::kInvalidSessionTimeout:
      return "INVALID_SESSION_TIMEOUT";
    case ErrorCode::kRebalanceInProgress:
      return "REBALANCE_IN_PROGRESS";
    case ErrorCode::kInvalidCommitOffsetSize:
      return "INVALID_COMMIT_OFFSET_SIZE";
    case ErrorCode::kTopicAuthorizationFailed:
      return "TOPIC_AUTHORIZATION_FAILED";
    case ErrorCode::kGroupAuthorizationFailed:
      return "GROUP_AUTHORIZATION_FAILED";
    case ErrorCode::kClusterAuthorizationFailed:
      return "CLUSTER_AUTHORIZATION_FAILED";
    case ErrorCode::kInvalidTimestamp:
      return "INVALID_TIMESTAMP";
    case ErrorCode::kUnsupportedSaslMechanism:
      return "UNSUPPORTED_SASL_MECHANISM";
    case ErrorCode::kIllegalSaslState:
      return "ILLEGAL_SASL_STATE";
    case ErrorCode::kUnsupportedVersion:
      return "UNSUPPORTED_VERSION";
    case ErrorCode::kTopicAlreadyExists:
      return "TOPIC_ALREADY_EXISTS";
    case ErrorCode::kInvalidPartitions:
      return "INVALID_PARTITIONS";
    case ErrorCode::kInvalidReplicationFactor:
      return "INVALID_REPLICATION_FACTOR";
    case ErrorCode::kInvalidReplicaAssignment:
      return "INVALID_REPLICA_ASSIGNMENT";
    case ErrorCode::kInvalidConfig:
      return "INVALID_CONFIG";
    case ErrorCode::kNotController:
      return "NOT_CONTROLLER";
    case ErrorCode::kInvalidRequest:
      return "INVALID_REQUEST";
    case ErrorCode::kUnsupportedForMessageFormat:
      return "UNSUPPORTED_FOR_MESSAGE_FORMAT";
    case ErrorCode::kPolicyViolation:
      return "POLICY_VIOLATION";
    case ErrorCode::kOutOfOrderSequenceNumber:
      return "OUT_OF_ORDER_SEQUENCE_NUMBER";
    case ErrorCode::kDuplicateSequenceNumber:
      return "DUPLICATE_SEQUENCE_NUMBER";
    case ErrorCode::kInvalidProducerEpoch:
      return "INVALID_PRODUCER_EPOCH";
    case ErrorCode::kInvalidTxnState:
      return "INVALID_TXN_STATE";
    case ErrorCode::kInvalidProducerIdMapping:
      return "INVALID_PRODUCER_ID_MAPPING";
    case ErrorCode::kInvalidTransactionTimeout:
      return "INVALID_TRANSACTION_TIMEOUT";
    case ErrorCode::kConcurrentTransactions:
      return "CONCURRENT_TRANSACTIONS";
    case ErrorCode::kKafkaStorageError:
      return "KAFKA_STORAGE_ERROR";
    case ErrorCode::kSaslAuthenticationFailed:
      return "SASL_AUTHENTICATION_FAILED";
    case ErrorCode::kSecurityDisabled:
      return "SECURITY_DISABLED";
    case ErrorCode::kTransactionalIdAuthorizationFailed:
      return "TRANSACTIONAL_ID_AUTHORIZATION_FAILED";
    case ErrorCode::kOperationNotAttempted:
      return "OPERATION_NOT_ATTEMPTED";
    case ErrorCode::kUnknownProducerId:
      return "UNKNOWN_PRODUCER_ID";
    case ErrorCode::kNonEmptyGroup:
      return "NON_EMPTY_GROUP";
    case ErrorCode::kGroupIdNotFound:
      return "GROUP_ID_NOT_FOUND";
    case ErrorCode::kFetchSessionIdNotFound:
      return "FETCH_SESSION_ID_NOT_FOUND";
    case ErrorCode::kInvalidFetchSessionEpoch:
      return "INVALID_FETCH_SESSION_EPOCH";
    case ErrorCode::kUnknownLeaderEpoch:
      return "UNKNOWN_LEADER_EPOCH";
    case ErrorCode::kFencedLeaderEpoch:
      return "FENCED_LEADER_EPOCH";
    case ErrorCode::kUnsupportedCompressionType:
      return "UNSUPPORTED_COMPRESSION_TYPE";
    case ErrorCode::kMemberIdRequired:
      return "MEMBER_ID_REQUIRED";
    case ErrorCode::kGroupMaxSizeReached:
      return "GROUP_MAX_SIZE_REACHED";
    case ErrorCode::kPreferredLeaderNotAvailable:
      return "PREFERRED_LEADER_NOT_AVAILABLE";
    case ErrorCode::kFencedInstanceId:
      return "FENCED_INSTANCE_ID";
    case ErrorCode::kEligibleLeadersNotAvailable:
      return "ELIGIBLE_LEADERS_NOT_AVAILABLE";
    case ErrorCode::kElectionNotNeeded:
      return "ELECTION_NOT_NEEDED";
    case ErrorCode::kNoReassignmentInProgress:
      return "NO_REASSIGNMENT_IN_PROGRESS";
    case ErrorCode::kGroupSubscribedToTopic:
      return "GROUP_SUBSCRIBED_TO_TOPIC";
    case ErrorCode::kInvalidRecord:
      return "INVALID_RECORD";
    case ErrorCode::kUnstableOffsetCommit:
      return "UNSTABLE_OFFSET_COMMIT";
    case ErrorCode::kProducerFenced:
      return "PRODUCER_FENCED";
    case ErrorCode::kResourceNotFound:
      return "RESOURCE_NOT_FOUND";
    case ErrorCode::kDuplicateResource:
      return "DUPLICATE_RESOURCE";
    case ErrorCode::kUnacceptableCredential:
      return "UNACCEPTABLE_CREDENTIAL";
    case ErrorCode::kUnknownTopicId:
      return "UNKNOWN_TOPIC_ID";
    case ErrorCode::kFetchSessionTopicIdError:
      return "FETCH_SESSION_TOPIC_ID_ERROR";
    case ErrorCode::kFencedMemberEpoch:
      return "FENCED_MEMBER_EPOCH";
    case ErrorCode::kUnreleasedInstanceId:
      return "UNRELEASED_INSTANCE_ID";
    case ErrorCode::kUnsupportedAssignor:
      return "UNSUPPORTED_ASSIGNOR";
    case ErrorCode::kStaleMemberEpoch:
      return "STALE_MEMBER_EPOCH";
    case ErrorCode::kMismatchedEndpointType:
      return "MISMATCHED_ENDPOINT_TYPE";
    case ErrorCode::kUnsupportedEndpointType:
      return "UNSUPPORTED_ENDPOINT_TYPE";
    case ErrorCode::kInvalidRecordState:
      return "INVALID_RECORD_STATE";
    case ErrorCode::kShareSessionNotFound:
      return "SHARE_SESSION_NOT_FOUND";
    case ErrorCode::kInvalidShareSessionEpoch:
      return "INVALID_SHARE_SESSION_EPOCH";
    case ErrorCode::kFencedStateEpoch:
      return "FENCED_STATE_EPOCH";
    case ErrorCode::kShareSessionLimitReached:
      return "SHARE_SESSION_LIMIT_REACHED";
  }
  return "UNKNOWN_ERROR_CODE";
}

bool is_known_error_code(std::int16_t code) {
  return error_name(static_cast<ErrorCode>(code)) != "UNKNOWN_ERROR_CODE";
}

std::optional<ErrorCode> error_code_from_name(std::string_view name) {
  // Kafka's codes run from -1 into the low hundreds.
  for (std::int16_t code = -1; code < 1000; ++code) {
    if (is_known_error_code(code) && error_name(static_cast<ErrorCode>(code)) == name) {
      return static_cast<ErrorCode>(code);
    }
  }
  return std::nullopt;
}

}  // namespace kgroups::protocol
