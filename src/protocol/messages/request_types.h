// SPDX-License-Identifier: Apache-2.0
//
// The request and response message types of this codec, by API key, for code that must
// treat every message alike (the fuzz target, the golden-frame tests, a dispatch table). A
// visitor is a generic lambda called with a null pointer of the message type:
//   visit_request_type(key, [](auto* tag) { using Request = std::remove_pointer_t<decltype(tag)>;
//   });
// Thread-safe: constants only.
#pragma once

#include "protocol/api_key.h"
#include "protocol/messages/api_versions.h"
#include "protocol/messages/create_topics.h"
#include "protocol/messages/describe_groups.h"
#include "protocol/messages/fetch.h"
#include "protocol/messages/find_coordinator.h"
#include "protocol/messages/heartbeat.h"
#include "protocol/messages/init_producer_id.h"
#include "protocol/messages/join_group.h"
#include "protocol/messages/leave_group.h"
#include "protocol/messages/list_groups.h"
#include "protocol/messages/list_offsets.h"
#include "protocol/messages/metadata.h"
#include "protocol/messages/offset_commit.h"
#include "protocol/messages/offset_fetch.h"
#include "protocol/messages/produce.h"
#include "protocol/messages/sync_group.h"

namespace kgroups::protocol {

// Calls visitor(static_cast<Request*>(nullptr)) for the request type of `key` and returns
// true; returns false (without calling it) for a key this codec has no request type for.
template <class Visitor>
bool visit_request_type(ApiKey key, Visitor&& visitor) {
  switch (key) {
    case ApiKey::kProduce:
      visitor(static_cast<ProduceRequest*>(nullptr));
      return true;
    case ApiKey::kFetch:
      visitor(static_cast<FetchRequest*>(nullptr));
      return true;
    case ApiKey::kListOffsets:
      visitor(static_cast<ListOffsetsRequest*>(nullptr));
      return true;
    case ApiKey::kMetadata:
      visitor(static_cast<MetadataRequest*>(nullptr));
      return true;
    case ApiKey::kOffsetCommit:
      visitor(static_cast<OffsetCommitRequest*>(nullptr));
      return true;
    case ApiKey::kOffsetFetch:
      visitor(static_cast<OffsetFetchRequest*>(nullptr));
      return true;
    case ApiKey::kFindCoordinator:
      visitor(static_cast<FindCoordinatorRequest*>(nullptr));
      return true;
    case ApiKey::kJoinGroup:
      visitor(static_cast<JoinGroupRequest*>(nullptr));
      return true;
    case ApiKey::kHeartbeat:
      visitor(static_cast<HeartbeatRequest*>(nullptr));
      return true;
    case ApiKey::kLeaveGroup:
      visitor(static_cast<LeaveGroupRequest*>(nullptr));
      return true;
    case ApiKey::kSyncGroup:
      visitor(static_cast<SyncGroupRequest*>(nullptr));
      return true;
    case ApiKey::kDescribeGroups:
      visitor(static_cast<DescribeGroupsRequest*>(nullptr));
      return true;
    case ApiKey::kListGroups:
      visitor(static_cast<ListGroupsRequest*>(nullptr));
      return true;
    case ApiKey::kApiVersions:
      visitor(static_cast<ApiVersionsRequest*>(nullptr));
      return true;
    case ApiKey::kCreateTopics:
      visitor(static_cast<CreateTopicsRequest*>(nullptr));
      return true;
    case ApiKey::kInitProducerId:
      visitor(static_cast<InitProducerIdRequest*>(nullptr));
      return true;
    case ApiKey::kSaslHandshake:
      return false;
  }
  return false;
}

// Calls visitor(static_cast<Response*>(nullptr)) for the response type of `key` and returns
// true; returns false (without calling it) for a key this codec has no response type for.
template <class Visitor>
bool visit_response_type(ApiKey key, Visitor&& visitor) {
  switch (key) {
    case ApiKey::kProduce:
      visitor(static_cast<ProduceResponse*>(nullptr));
      return true;
    case ApiKey::kFetch:
      visitor(static_cast<FetchResponse*>(nullptr));
      return true;
    case ApiKey::kListOffsets:
      visitor(static_cast<ListOffsetsResponse*>(nullptr));
      return true;
    case ApiKey::kMetadata:
      visitor(static_cast<MetadataResponse*>(nullptr));
      return true;
    case ApiKey::kOffsetCommit:
      visitor(static_cast<OffsetCommitResponse*>(nullptr));
      return true;
    case ApiKey::kOffsetFetch:
      visitor(static_cast<OffsetFetchResponse*>(nullptr));
      return true;
    case ApiKey::kFindCoordinator:
      visitor(static_cast<FindCoordinatorResponse*>(nullptr));
      return true;
    case ApiKey::kJoinGroup:
      visitor(static_cast<JoinGroupResponse*>(nullptr));
      return true;
    case ApiKey::kHeartbeat:
      visitor(static_cast<HeartbeatResponse*>(nullptr));
      return true;
    case ApiKey::kLeaveGroup:
      visitor(static_cast<LeaveGroupResponse*>(nullptr));
      return true;
    case ApiKey::kSyncGroup:
      visitor(static_cast<SyncGroupResponse*>(nullptr));
      return true;
    case ApiKey::kDescribeGroups:
      visitor(static_cast<DescribeGroupsResponse*>(nullptr));
      return true;
    case ApiKey::kListGroups:
      visitor(static_cast<ListGroupsResponse*>(nullptr));
      return true;
    case ApiKey::kApiVersions:
      visitor(static_cast<ApiVersionsResponse*>(nullptr));
      return true;
    case ApiKey::kCreateTopics:
      visitor(static_cast<CreateTopicsResponse*>(nullptr));
      return true;
    case ApiKey::kInitProducerId:
      visitor(static_cast<InitProducerIdResponse*>(nullptr));
      return true;
    case ApiKey::kSaslHandshake:
      return false;
  }
  return false;
}

// Every API key that visit_request_type() and visit_response_type() know, in key order.
inline constexpr ApiKey kRequestTypeKeys[] = {
    ApiKey::kProduce,      ApiKey::kFetch,       ApiKey::kListOffsets,     ApiKey::kMetadata,
    ApiKey::kOffsetCommit, ApiKey::kOffsetFetch, ApiKey::kFindCoordinator, ApiKey::kJoinGroup,
    ApiKey::kHeartbeat,    ApiKey::kLeaveGroup,  ApiKey::kSyncGroup,       ApiKey::kDescribeGroups,
    ApiKey::kListGroups,   ApiKey::kApiVersions, ApiKey::kCreateTopics,    ApiKey::kInitProducerId};

}  // namespace kgroups::protocol
