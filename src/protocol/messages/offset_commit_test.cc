// SPDX-License-Identifier: Apache-2.0

#include "protocol/messages/offset_commit.h"

#include <gtest/gtest.h>

#include "protocol/messages/offset_fetch.h"
#include "protocol/messages/round_trip.h"

namespace kgroups::protocol {
namespace {

TEST(OffsetCommit, RequestRoundTripsInEveryVersion) {
  expect_round_trip_all_versions<OffsetCommitRequest>([](std::int16_t version) {
    OffsetCommitRequest request;
    request.group_id = "billing";
    if (version >= 1) {
      request.generation_id = 5;
      request.member_id = "m-1";
    }
    if (version >= 7) request.group_instance_id = "i-1";
    if (version >= 2 && version <= 4) request.retention_time_ms = 86400000;
    OffsetCommitRequest::Partition partition;
    partition.partition_index = 2;
    partition.committed_offset = 100;
    partition.committed_metadata = "meta";
    if (version == 1) partition.commit_timestamp = 1700000000000;
    if (version >= 6) partition.committed_leader_epoch = 0;
    OffsetCommitRequest::Partition no_metadata = partition;
    no_metadata.partition_index = 3;
    no_metadata.committed_metadata = std::nullopt;
    request.topics = {{"orders", {partition, no_metadata}}};
    return request;
  });
  expect_unsupported_versions_rejected<OffsetCommitRequest>();
}

TEST(OffsetCommit, ResponseRoundTripsInEveryVersion) {
  expect_round_trip_all_versions<OffsetCommitResponse>([](std::int16_t version) {
    OffsetCommitResponse response;
    if (version >= 3) response.throttle_time_ms = 1;
    response.topics = {{"orders", {{2, ErrorCode::kNone}, {3, ErrorCode::kRebalanceInProgress}}}};
    return response;
  });
  expect_unsupported_versions_rejected<OffsetCommitResponse>();
}

TEST(OffsetFetch, RequestRoundTripsInEveryVersion) {
  expect_round_trip_all_versions<OffsetFetchRequest>([](std::int16_t version) {
    OffsetFetchRequest request;
    if (version <= 7) {
      request.group_id = "billing";
      request.topics = std::vector<OffsetFetchRequest::Topic>{{"orders", {0, 1, 2}}, {"x", {}}};
    } else {
      request.groups = {{.group_id = "billing",
                         .topics = std::vector<OffsetFetchRequest::GroupTopic>{{"orders", {0, 1}}}},
                        {.group_id = "audit", .topics = std::nullopt}};
      if (version >= 9) request.groups[0].member_id = "m-1";
      if (version >= 9) request.groups[0].member_epoch = 3;
    }
    if (version >= 7) request.require_stable = true;
    return request;
  });
  for (std::int16_t version = 2; version <= 7; ++version) {
    expect_round_trip(OffsetFetchRequest{.group_id = "billing", .topics = std::nullopt}, version);
  }
  expect_unsupported_versions_rejected<OffsetFetchRequest>();
}

TEST(OffsetFetch, ResponseRoundTripsInEveryVersion) {
  expect_round_trip_all_versions<OffsetFetchResponse>([](std::int16_t version) {
    OffsetFetchResponse response;
    if (version >= 3) response.throttle_time_ms = 1;
    OffsetFetchResponse::Partition committed;
    committed.partition_index = 0;
    committed.committed_offset = 42;
    committed.metadata = "";
    if (version >= 5) committed.committed_leader_epoch = 1;
    OffsetFetchResponse::Partition nothing;
    nothing.partition_index = 1;
    if (version <= 7) {
      response.topics = {{"orders", {committed, nothing}}};
      if (version >= 2) response.error_code = ErrorCode::kCoordinatorLoadInProgress;
    } else {
      response.groups = {
          {.group_id = "billing",
           .topics =
               {{.name = "orders",
                 .partitions = {{.partition_index = 0, .committed_offset = 42, .metadata = ""}}}}},
          {.group_id = "audit", .error_code = ErrorCode::kCoordinatorLoadInProgress}};
    }
    return response;
  });
  expect_unsupported_versions_rejected<OffsetFetchResponse>();
}

}  // namespace
}  // namespace kgroups::protocol
