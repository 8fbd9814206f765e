// SPDX-License-Identifier: Apache-2.0
#include "broker/services/fetch_session_cache.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;
using Kind = FetchSessionCache::Kind;

FetchSessionPartition named(const std::string& topic, std::int32_t partition,
                            std::int64_t fetch_offset = 0) {
  return FetchSessionPartition{
      .key = {.topic_id = {}, .topic = topic, .partition = partition},
      .params = {.fetch_offset = fetch_offset, .partition_max_bytes = 1024}};
}

FetchSessionCache::Request full(std::vector<FetchSessionPartition> partitions,
                                std::int32_t epoch = FetchSessionCache::kInitialEpoch) {
  return {.session_id = 0,
          .session_epoch = epoch,
          .uses_topic_ids = false,
          .partitions = std::move(partitions),
          .forgotten = {}};
}

FetchSessionCache::Request incremental(std::int32_t id, std::int32_t epoch,
                                       std::vector<FetchSessionPartition> partitions = {},
                                       std::vector<FetchPartitionKey> forgotten = {}) {
  return {.session_id = id,
          .session_epoch = epoch,
          .uses_topic_ids = false,
          .partitions = std::move(partitions),
          .forgotten = std::move(forgotten)};
}

FetchPartitionOutcome quiet(std::int64_t high_watermark) {
  return {.high_watermark = high_watermark, .log_start_offset = 0};
}

// A full fetch with a session over t[0] and t[1], both at high watermark 5; its id.
std::int32_t open_session(FetchSessionCache& cache, std::int64_t now_ms = 0) {
  const auto context = cache.open(full({named("t", 0), named("t", 1)}), now_ms);
  EXPECT_EQ(context.kind, Kind::kFull);
  const std::vector<FetchPartitionOutcome> outcomes{quiet(5), quiet(5)};
  const auto answer = cache.answer(context, outcomes, now_ms);
  EXPECT_EQ(answer.error, ErrorCode::kNone);
  EXPECT_EQ(answer.include, (std::vector<bool>{true, true}));
  return answer.session_id;
}

TEST(FetchSessionCache, AFullFetchWithEpochZeroCreatesASession) {
  FetchSessionCache cache(10, 100, 1);
  const std::int32_t id = open_session(cache);
  EXPECT_GT(id, 0);
  EXPECT_EQ(cache.size(), 1u);
}

TEST(FetchSessionCache, ASessionlessFetchCreatesNone) {
  FetchSessionCache cache(10, 100, 1);
  const auto context = cache.open(full({named("t", 0)}, FetchSessionCache::kFinalEpoch), 0);
  EXPECT_EQ(context.kind, Kind::kSessionless);
  const std::vector<FetchPartitionOutcome> outcomes{quiet(5)};
  const auto answer = cache.answer(context, outcomes, 0);
  EXPECT_EQ(answer.session_id, 0);
  EXPECT_EQ(cache.size(), 0u);
}

TEST(FetchSessionCache, IncrementalFetchCoversTheSessionAndListsOnlyChangedPartitions) {
  FetchSessionCache cache(10, 100, 1);
  const std::int32_t id = open_session(cache);
  // Epoch 1: nothing named, so both session partitions are fetched.
  const auto context = cache.open(incremental(id, 1), 0);
  ASSERT_EQ(context.kind, Kind::kIncremental);
  ASSERT_EQ(context.partitions.size(), 2u);
  EXPECT_EQ(context.partitions[0].key.partition, 0);
  EXPECT_EQ(context.partitions[1].key.partition, 1);
  // t[1] got records (high watermark 7); t[0] did not change.
  const std::vector<FetchPartitionOutcome> outcomes{
      quiet(5), {.high_watermark = 7, .log_start_offset = 0, .has_records = true}};
  const auto answer = cache.answer(context, outcomes, 0);
  EXPECT_EQ(answer.error, ErrorCode::kNone);
  EXPECT_EQ(answer.session_id, id);
  EXPECT_EQ(answer.include, (std::vector<bool>{false, true}));

  // Epoch 2: a high watermark change alone is listed; an error always is.
  const auto next = cache.open(incremental(id, 2), 0);
  ASSERT_EQ(next.kind, Kind::kIncremental);
  const std::vector<FetchPartitionOutcome> next_outcomes{
      quiet(6), {.high_watermark = -1, .error = ErrorCode::kOffsetOutOfRange}};
  EXPECT_EQ(cache.answer(next, next_outcomes, 0).include, (std::vector<bool>{true, true}));
}

TEST(FetchSessionCache, IncrementalFetchListsAPartitionWhoseLastStableOffsetMoved) {
  FetchSessionCache cache(10, 100, 1);
  const auto context = cache.open(full({named("t", 0), named("t", 1)}), 0);
  const std::vector<FetchPartitionOutcome> outcomes{
      {.high_watermark = 5, .last_stable_offset = 2, .log_start_offset = 0},
      {.high_watermark = 5, .last_stable_offset = 5, .log_start_offset = 0}};
  const std::int32_t id = cache.answer(context, outcomes, 0).session_id;
  ASSERT_GT(id, 0);
  // Epoch 1: t[0]'s last stable offset moved, alone; t[1] is unchanged.
  const auto next = cache.open(incremental(id, 1), 0);
  const std::vector<FetchPartitionOutcome> next_outcomes{
      {.high_watermark = 5, .last_stable_offset = 4, .log_start_offset = 0},
      {.high_watermark = 5, .last_stable_offset = 5, .log_start_offset = 0}};
  EXPECT_EQ(cache.answer(next, next_outcomes, 0).include, (std::vector<bool>{true, false}));
  // Epoch 2: nothing moved.
  const auto quiet_next = cache.open(incremental(id, 2), 0);
  EXPECT_EQ(cache.answer(quiet_next, next_outcomes, 0).include, (std::vector<bool>{false, false}));
}

TEST(FetchSessionCache, PartitionsWithRecordsMoveToTheEndOfTheSession) {
  FetchSessionCache cache(10, 100, 1);
  const std::int32_t id = open_session(cache);
  const auto context = cache.open(incremental(id, 1), 0);
  const std::vector<FetchPartitionOutcome> outcomes{
      {.high_watermark = 9, .log_start_offset = 0, .has_records = true}, quiet(5)};
  cache.answer(context, outcomes, 0);
  const auto next = cache.open(incremental(id, 2), 0);
  ASSERT_EQ(next.partitions.size(), 2u);
  EXPECT_EQ(next.partitions[0].key.partition, 1);
  EXPECT_EQ(next.partitions[1].key.partition, 0);
}

TEST(FetchSessionCache, IncrementalFetchAddsUpdatesAndForgetsPartitions) {
  FetchSessionCache cache(10, 100, 1);
  const std::int32_t id = open_session(cache);
  const auto context =
      cache.open(incremental(id, 1, {named("t", 0, 42), named("u", 0)}, {named("t", 1).key}), 0);
  ASSERT_EQ(context.kind, Kind::kIncremental);
  ASSERT_EQ(context.partitions.size(), 2u);
  EXPECT_EQ(context.partitions[0].key, named("t", 0).key);
  EXPECT_EQ(context.partitions[0].params.fetch_offset, 42);
  EXPECT_EQ(context.partitions[1].key, named("u", 0).key);
  // The new partition has no answered state yet, so it is listed.
  const std::vector<FetchPartitionOutcome> outcomes{quiet(5), quiet(0)};
  EXPECT_EQ(cache.answer(context, outcomes, 0).include, (std::vector<bool>{false, true}));
}

TEST(FetchSessionCache, ForgettingEveryPartitionClosesTheSession) {
  FetchSessionCache cache(10, 100, 1);
  const std::int32_t id = open_session(cache);
  const auto context =
      cache.open(incremental(id, 1, {}, {named("t", 0).key, named("t", 1).key}), 0);
  EXPECT_EQ(context.kind, Kind::kSessionless);
  EXPECT_EQ(cache.size(), 0u);
}

TEST(FetchSessionCache, AWrongEpochGetsInvalidFetchSessionEpoch) {
  FetchSessionCache cache(10, 100, 1);
  const std::int32_t id = open_session(cache);
  const auto context = cache.open(incremental(id, 2), 0);
  EXPECT_EQ(context.kind, Kind::kError);
  EXPECT_EQ(context.error, ErrorCode::kInvalidFetchSessionEpoch);
  const auto answer = cache.answer(context, {}, 0);
  EXPECT_EQ(answer.error, ErrorCode::kInvalidFetchSessionEpoch);
  EXPECT_EQ(answer.session_id, 0);
  // The session is still there at its epoch.
  EXPECT_EQ(cache.open(incremental(id, 1), 0).kind, Kind::kIncremental);
}

TEST(FetchSessionCache, ADuplicateIncrementalFetchGetsInvalidEpochWhenAnswered) {
  FetchSessionCache cache(10, 100, 1);
  const std::int32_t id = open_session(cache);
  const auto first = cache.open(incremental(id, 1), 0);
  const auto second = cache.open(incremental(id, 2), 0);  // the session moved on
  const std::vector<FetchPartitionOutcome> outcomes{quiet(5), quiet(5)};
  EXPECT_EQ(cache.answer(first, outcomes, 0).error, ErrorCode::kInvalidFetchSessionEpoch);
  EXPECT_EQ(cache.answer(second, outcomes, 0).error, ErrorCode::kNone);
}

TEST(FetchSessionCache, AnUnknownIdGetsFetchSessionIdNotFound) {
  FetchSessionCache cache(10, 100, 1);
  const std::int32_t id = open_session(cache);
  const auto context = cache.open(incremental(id + 1, 1), 0);
  EXPECT_EQ(context.kind, Kind::kError);
  EXPECT_EQ(context.error, ErrorCode::kFetchSessionIdNotFound);
}

TEST(FetchSessionCache, MixingTopicIdsAndNamesGetsFetchSessionTopicIdError) {
  FetchSessionCache cache(10, 100, 1);
  const std::int32_t id = open_session(cache);  // by name
  auto request = incremental(id, 1);
  request.uses_topic_ids = true;
  const auto context = cache.open(request, 0);
  EXPECT_EQ(context.kind, Kind::kError);
  EXPECT_EQ(context.error, ErrorCode::kFetchSessionTopicIdError);
}

TEST(FetchSessionCache, AFullFetchNamingASessionClosesIt) {
  FetchSessionCache cache(10, 100, 1);
  const std::int32_t id = open_session(cache);
  auto request = full({named("t", 0)}, FetchSessionCache::kFinalEpoch);
  request.session_id = id;
  EXPECT_EQ(cache.open(request, 0).kind, Kind::kSessionless);
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_EQ(cache.open(incremental(id, 1), 0).error, ErrorCode::kFetchSessionIdNotFound);
}

TEST(FetchSessionCache, AFullCacheGivesNoSessionUntilTheOldestIsIdleLongEnough) {
  FetchSessionCache cache(2, 100, 1);
  const std::int32_t first = open_session(cache, 0);
  const std::int32_t second = open_session(cache, 1000);
  ASSERT_NE(first, second);
  // Full of recent sessions: a new full fetch is answered sessionless.
  EXPECT_EQ(open_session(cache, 2000), 0);
  EXPECT_EQ(cache.size(), 2u);
  // The first is used again, so the second becomes the least recently used.
  const auto context = cache.open(incremental(first, 1), 3000);
  const std::vector<FetchPartitionOutcome> outcomes{quiet(5), quiet(5)};
  cache.answer(context, outcomes, 3000);
  const std::int64_t later = 1000 + FetchSessionCache::kEvictionIdleMs;
  const std::int32_t third = open_session(cache, later);
  EXPECT_GT(third, 0);
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.open(incremental(second, 1), later).error, ErrorCode::kFetchSessionIdNotFound);
  EXPECT_EQ(cache.open(incremental(first, 2), later).kind, Kind::kIncremental);
}

TEST(FetchSessionCache, ZeroMaxSessionsDisablesSessions) {
  FetchSessionCache cache(0, 100, 1);
  EXPECT_EQ(open_session(cache), 0);
  EXPECT_EQ(cache.size(), 0u);
}

TEST(FetchSessionCache, ThePartitionsOfAllSessionsAreBounded) {
  FetchSessionCache cache(10, 5, 1);
  const std::int32_t first = open_session(cache);   // 2 partitions
  const std::int32_t second = open_session(cache);  // 4
  ASSERT_GT(second, 0);
  EXPECT_EQ(cache.cached_partitions(), 4u);
  EXPECT_EQ(open_session(cache), 0);  // 6 would be too many: sessionless
  // Growing a session beyond the bound closes it.
  const auto context = cache.open(incremental(first, 1, {named("u", 0), named("u", 1)}), 0);
  EXPECT_EQ(context.kind, Kind::kError);
  EXPECT_EQ(context.error, ErrorCode::kFetchSessionIdNotFound);
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_EQ(cache.cached_partitions(), 2u);
  // Within the bound it grows.
  EXPECT_EQ(cache.open(incremental(second, 1, {named("u", 0)}), 0).kind, Kind::kIncremental);
  EXPECT_EQ(cache.cached_partitions(), 3u);
}

TEST(FetchSessionCache, LongTopicNamesSurviveAddsMovesAndForgets) {
  FetchSessionCache cache(10, 100, 1);
  const std::string a(200, 'a');
  const std::string b(200, 'b');
  const auto context = cache.open(full({named(a, 0), named(b, 0)}), 0);
  const std::vector<FetchPartitionOutcome> quiet_both{quiet(5), quiet(5)};
  const std::int32_t id = cache.answer(context, quiet_both, 0).session_id;
  ASSERT_GT(id, 0);
  // a[0] gets records and moves to the end; then b[0] is forgotten and c[0] added.
  const auto first = cache.open(incremental(id, 1), 0);
  const std::vector<FetchPartitionOutcome> a_grows{
      {.high_watermark = 6, .log_start_offset = 0, .has_records = true}, quiet(5)};
  cache.answer(first, a_grows, 0);
  const std::string c(200, 'c');
  const auto second = cache.open(incremental(id, 2, {named(c, 0)}, {named(b, 0).key}), 0);
  ASSERT_EQ(second.kind, Kind::kIncremental);
  ASSERT_EQ(second.partitions.size(), 2u);
  EXPECT_EQ(second.partitions[0].key.topic, a);
  EXPECT_EQ(second.partitions[1].key.topic, c);
  // Named again, a[0] is found (not added twice).
  const auto third = cache.open(incremental(id, 3, {named(a, 0, 6)}), 0);
  ASSERT_EQ(third.partitions.size(), 2u);
  EXPECT_EQ(third.partitions[0].params.fetch_offset, 6);
  EXPECT_EQ(cache.cached_partitions(), 2u);
}

TEST(FetchSessionCache, EpochsWrapToOne) {
  EXPECT_EQ(FetchSessionCache::next_epoch(1), 2);
  EXPECT_EQ(FetchSessionCache::next_epoch(2147483647), 1);
  EXPECT_EQ(FetchSessionCache::next_epoch(-1), -1);
}

}  // namespace
}  // namespace kgroups::broker
