// SPDX-License-Identifier: Apache-2.0
#include "broker/services/list_offsets_service.h"

#include <gtest/gtest.h>

#include "broker/storage/transaction_batches_for_tests.h"

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;
using protocol::ListOffsetsRequest;
using protocol::ListOffsetsResponse;

constexpr std::int8_t kReadUncommitted = 0;
constexpr std::int8_t kReadCommitted = 1;

struct ListOffsetsFixture {
  Cluster cluster{1, false};
  protocol::RecordValidator records;
  AppendNotifier notifier;
  ReplicationController replication{cluster, notifier, ReplicationSettings{}, [] { return 0; }};
  BatchLog* log = nullptr;

  ListOffsetsFixture() {
    EXPECT_EQ(cluster.create_topic("t", 1), ErrorCode::kNone);
    log = cluster.find_partition("t", 0);
  }

  ListOffsetsResponse::Partition ask(std::int8_t isolation, std::int64_t timestamp) {
    ListOffsetsRequest request;
    request.isolation_level = isolation;
    request.topics.push_back({.name = "t", .partitions = {{.timestamp = timestamp}}});
    const ListOffsetsResponse response = list_offsets(cluster, records, request, replication);
    EXPECT_EQ(response.topics.size(), 1U);
    EXPECT_EQ(response.topics.front().partitions.size(), 1U);
    return response.topics.front().partitions.front();
  }
};

TEST(ListOffsets, LatestIsTheLastStableOffsetForReadCommitted) {
  ListOffsetsFixture fixture;
  testing::append_batch(*fixture.log, testing::plain_batch({"a", "b"}));  // 0-1
  testing::append_transactional(*fixture.log, 7, {"open"});               // 2
  const auto committed = fixture.ask(kReadCommitted, protocol::kListOffsetsLatestTimestamp);
  EXPECT_EQ(committed.error_code, ErrorCode::kNone);
  EXPECT_EQ(committed.offset, 2);
  EXPECT_EQ(fixture.ask(kReadUncommitted, protocol::kListOffsetsLatestTimestamp).offset, 3);
  EXPECT_EQ(fixture.ask(kReadCommitted, protocol::kListOffsetsEarliestTimestamp).offset, 0);

  testing::append_marker(*fixture.log, 7, /*committed=*/false);  // 3
  EXPECT_EQ(fixture.ask(kReadCommitted, protocol::kListOffsetsLatestTimestamp).offset, 4);
}

TEST(ListOffsets, ReadCommittedFindsNoRecordAtOrAfterTheLastStableOffsetByTimestamp) {
  ListOffsetsFixture fixture;
  testing::append_batch(*fixture.log, testing::plain_batch({"a"}, 1000));      // 0
  testing::append_transactional(*fixture.log, 7, {"open"}, 5000);              // 1
  testing::append_batch(*fixture.log, testing::plain_batch({"after"}, 6000));  // 2

  const auto early = fixture.ask(kReadCommitted, 500);
  EXPECT_EQ(early.offset, 0);
  EXPECT_EQ(early.timestamp, 1000);

  // The first record at or after 4000 is the open transaction's: none for read_committed
  // (also not the later plain record), found for read_uncommitted.
  const auto committed = fixture.ask(kReadCommitted, 4000);
  EXPECT_EQ(committed.error_code, ErrorCode::kNone);
  EXPECT_EQ(committed.offset, -1);
  EXPECT_EQ(committed.timestamp, -1);
  EXPECT_EQ(committed.leader_epoch, -1);
  const auto uncommitted = fixture.ask(kReadUncommitted, 4000);
  EXPECT_EQ(uncommitted.offset, 1);
  EXPECT_EQ(uncommitted.timestamp, 5000);

  // The newest record (-3) lies past the last stable offset too.
  EXPECT_EQ(fixture.ask(kReadCommitted, protocol::kListOffsetsMaxTimestamp).offset, -1);
  EXPECT_EQ(fixture.ask(kReadUncommitted, protocol::kListOffsetsMaxTimestamp).offset, 2);

  testing::append_marker(*fixture.log, 7, /*committed=*/true);  // 3
  EXPECT_EQ(fixture.ask(kReadCommitted, 4000).offset, 1);
}

TEST(ListOffsets, AnUnknownIsolationLevelIsAnInvalidRequest) {
  ListOffsetsFixture fixture;
  testing::append_batch(*fixture.log, testing::plain_batch({"a"}));
  const auto answer = fixture.ask(5, protocol::kListOffsetsLatestTimestamp);
  EXPECT_EQ(answer.error_code, ErrorCode::kInvalidRequest);
  EXPECT_EQ(answer.offset, -1);
}

}  // namespace
}  // namespace kgroups::broker
