// SPDX-License-Identifier: Apache-2.0
//
// Produce's producer checks after a restart on a log directory (--log-dirs): the owner of an
// id issued before the restart, which had not written yet, writes its first batch; an id never
// issued is still refused (docs/STORAGE.md, "Producer ids").
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "broker/storage/cluster.h"
#include "broker/storage/log_directory.h"
#include "broker/storage/producer_registry.h"
#include "broker/transactions/producer_writes.h"
#include "protocol/record_batch_builder.h"
#include "protocol/record_validator.h"

namespace kgroups::broker {
namespace {

namespace fs = std::filesystem;
using protocol::ErrorCode;

std::vector<std::uint8_t> batch_from(std::int64_t producer_id, std::int32_t base_sequence,
                                     const std::string& value) {
  protocol::RecordBatchBuilder builder;
  builder.set_producer(producer_id, 0, base_sequence);
  builder.add(protocol::ByteView::of("k"), protocol::ByteView::of(value), 1000);
  return builder.build();
}

// A broker's storage and Produce checks on a log directory; destroyed, it is killed.
struct RestartableBroker {
  explicit RestartableBroker(const fs::path& path)
      : directory(std::make_unique<LogDirectory>(
            LogDirectoryOptions{.path = path, .cluster_id = "test", .node_id = 0})) {
    cluster.set_log_directory(directory.get());
    (void)directory->restore(cluster, producers);
  }
  ErrorCode produce(std::int64_t producer_id, std::int32_t base_sequence, std::int64_t& offset) {
    const std::vector<std::uint8_t> bytes = batch_from(producer_id, base_sequence, "v");
    protocol::RecordValidator validator({.allow_producer_ids = true});
    const auto batch = validator.validate(bytes);
    if (!batch) {
      ADD_FAILURE() << "the test's batch is invalid";
      return batch.error();
    }
    std::string reason;
    return writes.store(*cluster.find_topic("events"), 0, *batch, offset, reason);
  }
  std::unique_ptr<LogDirectory> directory;
  Cluster cluster{ClusterConfig{}};
  ProducerRegistry producers{1000, 100000};
  ProducerWrites writes{cluster, producers};
};

class ProducerWritesRestartTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("kgroups-producer-writes-" + std::to_string(std::random_device{}()));
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path root_;
};

TEST_F(ProducerWritesRestartTest, AnIdIssuedBeforeARestartWritesItsFirstBatchAfterIt) {
  std::int64_t writer = -1;
  std::int64_t late_writer = -1;
  std::int64_t offset = -1;
  {
    RestartableBroker broker(root_);
    ASSERT_EQ(broker.cluster.create_topic("events", 1), ErrorCode::kNone);
    writer = broker.producers.issue(false);
    late_writer = broker.producers.issue(false);
    ASSERT_EQ(broker.produce(writer, 0, offset), ErrorCode::kNone);
  }  // killed before late_writer wrote
  RestartableBroker restarted(root_);
  const std::int64_t newcomer = restarted.producers.issue(false);
  EXPECT_NE(newcomer, late_writer);
  EXPECT_NE(newcomer, writer);
  ASSERT_EQ(restarted.produce(newcomer, 0, offset), ErrorCode::kNone);
  EXPECT_EQ(offset, 1);
  // The late writer's sequence 0 is its own, not a duplicate of anyone's: stored at offset 2.
  ASSERT_EQ(restarted.produce(late_writer, 0, offset), ErrorCode::kNone);
  EXPECT_EQ(offset, 2);
  ASSERT_EQ(restarted.produce(late_writer, 1, offset), ErrorCode::kNone);
  EXPECT_EQ(offset, 3);
  ASSERT_EQ(restarted.produce(late_writer, 1, offset), ErrorCode::kNone);  // a retry
  EXPECT_EQ(offset, 3);
  EXPECT_EQ(restarted.cluster.find_topic("events")->partitions[0].log_end_offset(), 4);
  // Ids never issued are refused as before.
  EXPECT_EQ(restarted.produce(newcomer + 1, 0, offset), ErrorCode::kUnknownProducerId);
}

TEST_F(ProducerWritesRestartTest, IdsStayUniqueAcrossManyRestartsEvenWhenNoneIsWritten) {
  std::vector<std::int64_t> issued;
  for (int start = 0; start < 5; ++start) {
    RestartableBroker broker(root_);
    issued.push_back(broker.producers.issue(false));
    issued.push_back(broker.producers.issue(true));
  }
  std::vector<std::int64_t> sorted = issued;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end());
}

}  // namespace
}  // namespace kgroups::broker
