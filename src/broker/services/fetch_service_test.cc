// SPDX-License-Identifier: Apache-2.0
#include "broker/services/fetch_service.h"

#include <gtest/gtest.h>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/io_context.hpp>
#include <optional>
#include <string>
#include <vector>

#include "broker/storage/transaction_batches_for_tests.h"

namespace kgroups::broker {
namespace {

using protocol::ErrorCode;
using protocol::FetchRequest;
using protocol::FetchResponse;

constexpr std::int16_t kVersion = 12;
constexpr std::int8_t kReadUncommitted = 0;
constexpr std::int8_t kReadCommitted = 1;

// A fetch service over a cluster with topic "t" (one partition), driven by an io_context.
struct FetchFixture {
  BrokerConfig config;
  Cluster cluster{1, false};
  AppendNotifier notifier;
  ByteBudget response_memory{64 << 20};
  FetchService service{config, cluster, notifier, response_memory};
  asio::io_context io;
  BatchLog* log = nullptr;
  const FetchingClient* client = nullptr;  // who the fetches started come from

  FetchFixture() {
    EXPECT_EQ(cluster.create_topic("t", 1), ErrorCode::kNone);
    log = cluster.find_partition("t", 0);
  }

  static FetchRequest request(std::int8_t isolation, std::int64_t offset,
                              std::int32_t min_bytes = 0, std::int32_t max_wait_ms = 0) {
    FetchRequest request;
    request.isolation_level = isolation;
    request.min_bytes = min_bytes;
    request.max_wait_ms = max_wait_ms;
    request.topics.push_back(
        {.topic = "t", .partitions = {{.fetch_offset = offset, .partition_max_bytes = 1 << 20}}});
    return request;
  }

  // Starts the fetch; `answer` is set once it is answered.
  void start(FetchRequest request, std::optional<FetchResponse>& answer) {
    asio::co_spawn(
        io,
        [this, request = std::move(request), &answer]() -> asio::awaitable<void> {
          answer = co_await service.fetch(request, kVersion, nullptr, client);
        },
        asio::detached);
    poll();
  }

  // Runs what is ready (after an earlier poll ran out of work, which stops the context).
  void poll() {
    io.restart();
    io.poll();
  }
};

const FetchResponse::Partition& only_partition(const FetchResponse& response) {
  EXPECT_EQ(response.responses.size(), 1U);
  EXPECT_EQ(response.responses.front().partitions.size(), 1U);
  return response.responses.front().partitions.front();
}

TEST(FetchService, ReadCommittedLongPollWaitsForTheMarkerNotForTransactionalData) {
  FetchFixture fixture;
  BatchLog& log = *fixture.log;
  testing::append_transactional(log, 7, {"open"});  // 0
  std::optional<FetchResponse> answer;
  fixture.start(FetchFixture::request(kReadCommitted, 0, /*min_bytes=*/1, 60000), answer);
  EXPECT_FALSE(answer) << "nothing readable yet";

  // More data of the open transaction wakes the fetch, which finds nothing readable still.
  testing::append_transactional(log, 7, {"more"});  // 1
  fixture.notifier.notify(log);
  fixture.poll();
  EXPECT_FALSE(answer);

  testing::append_marker(log, 7, /*committed=*/true);  // 2
  fixture.notifier.notify(log);
  fixture.poll();
  ASSERT_TRUE(answer);
  const FetchResponse::Partition& partition = only_partition(*answer);
  EXPECT_EQ(partition.records.size(), 3U);
  EXPECT_EQ(partition.last_stable_offset, 3);
  EXPECT_EQ(partition.high_watermark, 3);
  EXPECT_EQ(partition.aborted_transactions, std::vector<FetchResponse::AbortedTransaction>{});
}

TEST(FetchService, ReadUncommittedSeesAnOpenTransactionAtOnce) {
  FetchFixture fixture;
  testing::append_transactional(*fixture.log, 7, {"open"});
  std::optional<FetchResponse> answer;
  fixture.start(FetchFixture::request(kReadUncommitted, 0, /*min_bytes=*/1, 60000), answer);
  ASSERT_TRUE(answer);
  const FetchResponse::Partition& partition = only_partition(*answer);
  EXPECT_EQ(partition.records.size(), 1U);
  EXPECT_EQ(partition.last_stable_offset, 0);
  EXPECT_EQ(partition.high_watermark, 1);
  EXPECT_FALSE(partition.aborted_transactions);
}

TEST(FetchService, AnAbortWakesAReadCommittedFetchWithTheAbortedTransactionListed) {
  FetchFixture fixture;
  BatchLog& log = *fixture.log;
  testing::append_transactional(log, 7, {"doomed"});
  std::optional<FetchResponse> answer;
  fixture.start(FetchFixture::request(kReadCommitted, 0, /*min_bytes=*/1, 60000), answer);
  EXPECT_FALSE(answer);
  testing::append_marker(log, 7, /*committed=*/false);
  fixture.notifier.notify(log);
  fixture.poll();
  ASSERT_TRUE(answer);
  const FetchResponse::Partition& partition = only_partition(*answer);
  EXPECT_EQ(partition.records.size(), 2U);  // the data and its marker: the client skips both
  EXPECT_EQ(
      partition.aborted_transactions,
      (std::vector<FetchResponse::AbortedTransaction>{{.producer_id = 7, .first_offset = 0}}));
}

TEST(FetchService, AnIncrementalFetchListsAPartitionOnceItsTransactionEnds) {
  FetchFixture fixture;
  BatchLog& log = *fixture.log;
  testing::append_transactional(log, 7, {"open"});
  FetchRequest full = FetchFixture::request(kReadCommitted, 0);
  full.session_epoch = 0;
  std::optional<FetchResponse> answer;
  fixture.start(full, answer);
  ASSERT_TRUE(answer);
  const std::int32_t session = answer->session_id;
  ASSERT_GT(session, 0);
  EXPECT_EQ(only_partition(*answer).last_stable_offset, 0);

  FetchRequest incremental;
  incremental.isolation_level = kReadCommitted;
  incremental.session_id = session;
  incremental.session_epoch = 1;
  answer.reset();
  fixture.start(incremental, answer);
  ASSERT_TRUE(answer);
  EXPECT_TRUE(answer->responses.empty()) << "nothing changed";

  testing::append_marker(log, 7, /*committed=*/true);
  incremental.session_epoch = 2;
  answer.reset();
  fixture.start(incremental, answer);
  ASSERT_TRUE(answer);
  const FetchResponse::Partition& partition = only_partition(*answer);
  EXPECT_EQ(partition.last_stable_offset, 2);
  EXPECT_EQ(partition.records.size(), 2U);
}

TEST(FetchService, AnUnknownIsolationLevelIsAnInvalidRequestAndOpensNoSession) {
  FetchFixture fixture;
  testing::append_batch(*fixture.log, testing::plain_batch({"a"}));
  FetchRequest request = FetchFixture::request(2, 0);
  request.session_epoch = 0;
  std::optional<FetchResponse> answer;
  fixture.start(request, answer);
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->error_code, ErrorCode::kInvalidRequest);
  EXPECT_EQ(answer->session_id, 0);
  EXPECT_EQ(only_partition(*answer).error_code, ErrorCode::kInvalidRequest);
  EXPECT_TRUE(only_partition(*answer).records.empty());
  EXPECT_EQ(fixture.service.sessions().size(), 0U);
}

// Records each delivery it is told, as "client peer topic partition fetch_offset end_offset".
class RecordingDeliveries : public FetchDeliveryObserver {
 public:
  void on_records_delivered(const FetchingClient& client, std::string_view topic,
                            std::int32_t partition, std::int64_t fetch_offset,
                            std::int64_t end_offset) override {
    deliveries.push_back(std::string(client.client_id) + " " + std::string(client.peer) + " " +
                         std::string(topic) + " " + std::to_string(partition) + " " +
                         std::to_string(fetch_offset) + " " + std::to_string(end_offset));
  }
  std::vector<std::string> deliveries;
};

TEST(FetchService, AConsumerFetchTellsTheDeliveryObserverWhatItSent) {
  FetchFixture fixture;
  testing::append_batch(*fixture.log, testing::plain_batch({"a", "b", "c"}));  // 0-2
  testing::append_batch(*fixture.log, testing::plain_batch({"d", "e"}));       // 3-4
  RecordingDeliveries observer;
  fixture.service.set_delivery_observer(&observer);
  const FetchingClient client{.client_id = "app", .peer = "127.0.0.1:5000"};
  fixture.client = &client;

  std::optional<FetchResponse> answer;
  // From the middle of the first batch: both batches are sent, the end is after the second.
  fixture.start(FetchFixture::request(kReadUncommitted, 1), answer);
  ASSERT_TRUE(answer);
  EXPECT_EQ(only_partition(*answer).records.size(), 2U);
  EXPECT_EQ(observer.deliveries, std::vector<std::string>{"app 127.0.0.1:5000 t 0 1 5"});

  // Nothing to send at the high watermark: no delivery.
  answer.reset();
  fixture.start(FetchFixture::request(kReadUncommitted, 5), answer);
  ASSERT_TRUE(answer);
  EXPECT_EQ(observer.deliveries.size(), 1U);

  // A follower's fetch (replica id 1) is no consumer's delivery.
  answer.reset();
  FetchRequest follower = FetchFixture::request(kReadUncommitted, 0);
  follower.replica_id = 1;
  fixture.start(follower, answer);
  ASSERT_TRUE(answer);
  EXPECT_EQ(only_partition(*answer).records.size(), 2U);
  EXPECT_EQ(observer.deliveries.size(), 1U);

  // Without the client (a caller that does not say who fetches), nothing is told.
  fixture.client = nullptr;
  answer.reset();
  fixture.start(FetchFixture::request(kReadUncommitted, 0), answer);
  ASSERT_TRUE(answer);
  EXPECT_EQ(observer.deliveries.size(), 1U);
}

}  // namespace
}  // namespace kgroups::broker
