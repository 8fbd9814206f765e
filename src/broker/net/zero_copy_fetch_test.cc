// SPDX-License-Identifier: Apache-2.0
//
// Zero-copy Fetch as a client sees it: kgroupsd's TcpServer on loopback (port 0) in a thread,
// a raw Fetch from a blocking socket whose small receive buffer keeps most of the 16 MiB
// answer queued in the broker. While it is queued (its batches spliced from the log's
// segments), the segments go: topic deletion, DeleteRecords, eviction, the cleaner replacing
// them. The answer must still arrive whole with the bytes that were stored.
#include <gtest/gtest.h>

#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/post.hpp>
#include <asio/read.hpp>
#include <asio/write.hpp>
#include <chrono>
#include <functional>
#include <future>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "broker/net/tcp_server.h"
#include "broker/node/broker.h"
#include "protocol/frame.h"
#include "protocol/messages/fetch.h"
#include "protocol/record_batch.h"
#include "protocol/record_batch_builder.h"
#include "protocol/request_header.h"
#include "protocol/wire_reader.h"

namespace kgroups::broker {
namespace {

using protocol::ByteView;

constexpr std::int64_t kMachineBytes = std::int64_t{8} << 30;
constexpr std::int16_t kVersion = 12;  // flexible
constexpr int kBatches = 64;
constexpr std::size_t kValueBytes = std::size_t{256} << 10;  // 64 batches: 16 MiB

std::vector<std::uint8_t> fetch_frame(std::int32_t correlation_id) {
  protocol::FetchRequest request;
  request.max_wait_ms = 0;
  request.max_bytes = 64 << 20;
  request.topics.push_back(
      {.topic = "t", .partitions = {{.fetch_offset = 0, .partition_max_bytes = 64 << 20}}});
  std::vector<std::uint8_t> frame;
  protocol::encode_request_frame(frame,
                                 {.api_key = protocol::ApiKey::kFetch,
                                  .api_version = kVersion,
                                  .correlation_id = correlation_id,
                                  .client_id = "zero-copy-test"},
                                 request);
  return frame;
}

// The size prefix of the next frame on `socket`.
std::int32_t read_frame_size(asio::ip::tcp::socket& socket) {
  std::uint8_t bytes[4];
  asio::read(socket, asio::buffer(bytes));
  return protocol::WireReader(bytes).read_int32();
}

class ZeroCopyFetch : public ::testing::Test {
 protected:
  ZeroCopyFetch() {
    EXPECT_EQ(broker_.cluster().create_topic("t", 1), protocol::ErrorCode::kNone);
    StoredTopic& topic = *broker_.cluster().find_topic("t");
    for (int i = 0; i < kBatches; ++i) {
      protocol::RecordBatchBuilder builder;
      builder.add(ByteView::of("key"),
                  ByteView::of(std::string(kValueBytes, static_cast<char>('a' + i % 26))),
                  1000 + i);
      const std::vector<std::uint8_t> batch = builder.build();
      EXPECT_TRUE(broker_.cluster().append(topic, 0, batch, 0, 1000 + i).has_value());
    }
    for (const StoredBatch& batch : broker_.cluster().find_partition("t", 0)->batches_from(0)) {
      stored_.insert(stored_.end(), batch.data, batch.data + batch.size_bytes);
    }
    server_.emplace(io_, broker_, "127.0.0.1", 0);
    server_->start();
    thread_ = std::thread([this] { io_.run_for(std::chrono::seconds(60)); });
  }
  ~ZeroCopyFetch() override {
    io_.stop();
    if (thread_.joinable()) thread_.join();
  }

  // Runs `work` on the broker's thread and waits for it.
  void on_broker(const std::function<void()>& work) {
    std::promise<void> done;
    asio::post(io_, [&] {
      work();
      done.set_value();
    });
    done.get_future().wait();
  }

  // Sends the Fetch, waits until the broker has queued the answer and written its start,
  // runs `drop` on the broker's thread, then reads the answer and checks its records.
  void expect_answer_survives(const std::function<void()>& drop) {
    asio::ip::tcp::socket socket(client_io_);
    socket.open(asio::ip::tcp::v4());
    socket.set_option(asio::socket_base::receive_buffer_size(4096));
    socket.connect({asio::ip::make_address("127.0.0.1"), server_->port()});
    asio::write(socket, asio::buffer(fetch_frame(7)));
    const std::int32_t size = read_frame_size(socket);
    ASSERT_GT(static_cast<std::size_t>(size), stored_.size());
    std::int64_t unsent = 0;
    on_broker([&] { unsent = broker_.response_memory().used(); });
    EXPECT_GE(unsent, static_cast<std::int64_t>(stored_.size()) / 2);  // still queued
    on_broker(drop);
    // Memory a freed segment would have been: given to new batches of other bytes.
    on_broker([&] {
      ASSERT_EQ(broker_.cluster().create_topic("other", 1), protocol::ErrorCode::kNone);
      StoredTopic& other = *broker_.cluster().find_topic("other");
      protocol::RecordBatchBuilder builder;
      builder.add(ByteView::of("key"), ByteView::of(std::string(kValueBytes, '#')), 1);
      const std::vector<std::uint8_t> batch = builder.build();
      for (int i = 0; i < kBatches; ++i) (void)broker_.cluster().append(other, 0, batch, 0, 1);
    });
    std::vector<std::uint8_t> frame(static_cast<std::size_t>(size));
    asio::read(socket, asio::buffer(frame));
    protocol::WireReader reader(frame);
    ASSERT_EQ(reader.read_int32(), 7);  // correlation id
    reader.read_unsigned_varint();      // the response header's tagged fields
    const auto response = protocol::FetchResponse::decode(reader, kVersion);
    ASSERT_TRUE(response);
    ASSERT_EQ(response->responses.size(), 1u);
    ASSERT_EQ(response->responses[0].partitions.size(), 1u);
    const auto& records = response->responses[0].partitions[0].records;
    ASSERT_EQ(records.size(), 1u);
    EXPECT_TRUE(records[0] == ByteView(stored_));
  }

  Broker broker_{BrokerConfig{}, kMachineBytes};
  asio::io_context io_;
  asio::io_context client_io_;
  std::optional<TcpServer> server_;
  std::thread thread_;
  std::vector<std::uint8_t> stored_;  // the partition's batches as stored, back to back
};

TEST_F(ZeroCopyFetch, TheAnswerSurvivesTheTopicsDeletion) {
  expect_answer_survives([&] { EXPECT_TRUE(broker_.delete_topic("t")); });
}

TEST_F(ZeroCopyFetch, TheAnswerSurvivesDeleteRecords) {
  expect_answer_survives([&] {
    StoredTopic& topic = *broker_.cluster().find_topic("t");
    EXPECT_TRUE(broker_.cluster().delete_records(topic, 0, -1).has_value());
    EXPECT_EQ(broker_.cluster().find_partition("t", 0)->segment_count(), 0u);
  });
}

TEST_F(ZeroCopyFetch, TheAnswerSurvivesEvictionAndTheCleanerReplacingSegments) {
  expect_answer_survives([&] {
    BatchLog& log = *broker_.cluster().find_partition("t", 0);
    // The cleaner finds the closed segments' batches all superseded...
    const std::size_t closed = log.closed_segments().size();
    ASSERT_GT(closed, 0u);
    broker_.cluster().record_log_memory_change(
        log.replace_segments(0, std::vector<CleanedSegment>(closed)));
    // ... and the memory budget evicts the rest.
    while (log.segment_count() > 0) {
      broker_.cluster().record_log_memory_change(
          -static_cast<std::int64_t>(log.evict_oldest_segment()));
    }
  });
}

}  // namespace
}  // namespace kgroups::broker
