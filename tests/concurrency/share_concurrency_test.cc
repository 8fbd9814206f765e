// SPDX-License-Identifier: Apache-2.0
//
// Share groups under concurrency (label `concurrency`, run under ThreadSanitizer
// by the tsan preset): writers append while three members of one share group
// acquire and accept, a fourth member joins, acquires and crashes (share_leave)
// over and over, and a clock thread advances the topic's clock so that locks run
// out. Afterwards: no record was accepted twice or delivered to a member with
// another's bytes, every appended record was accepted once, and every
// share-partition's start offset reached its end offset. Every loop is bounded.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "kgroups/kgroups.h"

namespace {

constexpr int kPartitions = 4;
constexpr int kWriters = 2;
constexpr int kRecordsPerWriter = 4'000;
constexpr int kRecords = kWriters * kRecordsPerWriter;
constexpr std::chrono::seconds kDeadline{60};

using RecordId = std::pair<int, std::int64_t>;

TEST(ShareConcurrency, EveryRecordIsAcceptedExactlyOnceWhileMembersCrashAndLocksRunOut) {
  kgroups::TopicOptions options;
  options.share_auto_offset_reset = "earliest";
  options.record_lock_duration_ms = 50;
  options.delivery_count_limit = 10;
  kgroups::Topic topic(kPartitions, options);
  for (const char* member : {"A", "B", "C"}) topic.share_join("q", member);

  const auto started = std::chrono::steady_clock::now();
  const auto in_time = [&] { return std::chrono::steady_clock::now() - started < kDeadline; };
  std::atomic<int> written{0};
  std::mutex accepted_mutex;
  std::set<RecordId> accepted;
  std::atomic<int> duplicates{0};
  std::atomic<int> wrong_bytes{0};

  // Accepts what it got one record at a time (a record whose lock ran out is refused).
  const auto accept = [&](const std::string& member, const std::vector<kgroups::ShareRecord>& got) {
    for (const kgroups::ShareRecord& record : got) {
      if (record.record.value != std::string(record.record.key) + "-value") ++wrong_bytes;
      const RecordId id{record.record.partition, record.record.offset};
      try {
        topic.acknowledge("q", member, {id}, kgroups::AcknowledgeType::kAccept);
      } catch (const kgroups::NotAcquiredError&) {
        continue;
      }
      const std::lock_guard lock(accepted_mutex);
      if (!accepted.insert(id).second) ++duplicates;
    }
  };
  const auto accepted_count = [&] {
    const std::lock_guard lock(accepted_mutex);
    return static_cast<int>(accepted.size());
  };

  std::vector<std::thread> threads;
  for (int writer = 0; writer < kWriters; ++writer) {
    threads.emplace_back([&, writer] {
      for (int i = 0; i < kRecordsPerWriter; ++i) {
        const std::string key = "w" + std::to_string(writer) + "-" + std::to_string(i);
        (void)topic.append(key, key + "-value");
        ++written;
      }
    });
  }
  for (const char* member : {"A", "B", "C"}) {
    threads.emplace_back([&, member] {
      while (accepted_count() < kRecords && in_time())
        accept(member, topic.share_poll("q", member, 20));
    });
  }
  threads.emplace_back([&] {  // D joins, acquires and crashes holding its records
    for (int round = 0; round < 200 && in_time(); ++round) {
      topic.share_join("q", "D");
      const std::vector<kgroups::ShareRecord> got = topic.share_poll("q", "D", 5);
      if (!got.empty()) accept("D", {got.front()});
      topic.share_leave("q", "D");
    }
  });
  threads.emplace_back([&] {  // the clock: locks of slow members run out
    while (accepted_count() < kRecords && in_time()) {
      topic.advance_clock(1);
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });
  for (std::thread& thread : threads) thread.join();

  EXPECT_EQ(written.load(), kRecords);
  EXPECT_EQ(duplicates.load(), 0);
  EXPECT_EQ(wrong_bytes.load(), 0);
  EXPECT_EQ(accepted_count(), kRecords);
  for (int partition = 0; partition < kPartitions; ++partition) {
    EXPECT_EQ(topic.share_start_offset("q", partition), topic.end_offset(partition))
        << "partition " << partition;
  }
}

}  // namespace
