// SPDX-License-Identifier: Apache-2.0
//
// Concurrency test (label `concurrency`, run under ThreadSanitizer by the tsan
// preset): writers append, consumers of one group poll and commit while members
// come and go, a lone consumer of a second group reads everything, and a reader
// watches end and committed offsets, all on one Topic at once. Afterwards:
// offsets are dense per partition, every polled record is the appended one, the
// lone consumer saw each record exactly once in order, and after a final drain
// and commit every appended record was delivered to the busy group at least once.
// Every loop is bounded; the whole test takes seconds under TSan.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <latch>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "kgroups/kgroups.h"

namespace {

constexpr int kPartitions = 8;
constexpr int kWriters = 3;
constexpr int kRecordsPerWriter = 10'000;
constexpr int kConsumers = 3;
constexpr int kMaxLoops = 1'000'000;  // bound on every loop, with kDeadline
constexpr std::chrono::seconds kDeadline{60};

// True while the test's time budget lasts: loops that wait for the writers stop
// at the deadline even if something hangs.
bool in_time(std::chrono::steady_clock::time_point started) {
  return std::chrono::steady_clock::now() - started < kDeadline;
}

using PartitionOffset = std::pair<int, std::int64_t>;

// What a thread saw of one record.
struct Seen {
  int partition;
  std::int64_t offset;
  std::string key;
  std::string value;
};

// Records of one poll must be in partition order and, within a partition, at
// consecutive offsets. Returns "" or what was wrong.
std::string check_poll_order(const std::vector<kgroups::Record>& records) {
  for (std::size_t i = 1; i < records.size(); ++i) {
    const kgroups::Record& before = records[i - 1];
    const kgroups::Record& after = records[i];
    if (after.partition < before.partition ||
        (after.partition == before.partition && after.offset != before.offset + 1)) {
      return "poll returned p" + std::to_string(before.partition) + "@" +
             std::to_string(before.offset) + " then p" + std::to_string(after.partition) + "@" +
             std::to_string(after.offset);
    }
  }
  return "";
}

// The offsets a consumer has polled up to, per partition, for commit with offsets.
std::map<int, std::int64_t> next_offsets(const std::vector<kgroups::Record>& records) {
  std::map<int, std::int64_t> next;
  for (const kgroups::Record& record : records) next[record.partition] = record.offset + 1;
  return next;
}

void append_seen(const std::vector<kgroups::Record>& records, std::vector<Seen>& seen) {
  for (const kgroups::Record& record : records) {
    seen.push_back(
        {record.partition, record.offset, std::string(record.key), std::string(record.value)});
  }
}

TEST(TopicConcurrency, ConcurrentAppendPollCommitKeepsOffsetsDenseAndLosesNothing) {
  kgroups::Topic topic(kPartitions);
  const auto started = std::chrono::steady_clock::now();
  std::latch start(kWriters + kConsumers + 3);
  std::atomic<bool> writers_done{false};

  // Writers: the (partition, offset) of every append, with its value.
  std::vector<std::vector<Seen>> appended(kWriters);
  std::vector<std::thread> writers;
  writers.reserve(kWriters);
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      start.arrive_and_wait();
      for (int i = 0; i < kRecordsPerWriter; ++i) {
        const std::string key = "w" + std::to_string(w) + "-key" + std::to_string(i % 50);
        std::string value = "w" + std::to_string(w) + "-" + std::to_string(i);
        const auto [partition, offset] = topic.append(key, value);
        appended[w].push_back({partition, offset, key, std::move(value)});
        if (i % 32 == 31) std::this_thread::yield();  // let the readers interleave
      }
    });
  }

  // Consumers of group "g": poll, check, commit (both ways), sometimes leave and rejoin.
  std::vector<std::vector<Seen>> delivered(kConsumers);
  std::vector<std::string> consumer_errors(kConsumers);
  std::atomic<int> stale_commits{0};
  std::atomic<int> consumer_polls{0};
  std::vector<std::thread> consumers;
  consumers.reserve(kConsumers);
  for (int c = 0; c < kConsumers; ++c) {
    consumers.emplace_back([&, c] {
      const std::string id = "c" + std::to_string(c);
      std::mt19937 rng(1234 + c);
      topic.join("g", id);
      start.arrive_and_wait();
      for (int loop = 0; loop < kMaxLoops && !writers_done.load() && in_time(started); ++loop) {
        const auto records = topic.poll("g", id, 1 + static_cast<int>(rng() % 64));
        consumer_polls.fetch_add(1);
        if (records.empty()) std::this_thread::yield();
        const std::string order = check_poll_order(records);
        if (!order.empty() && consumer_errors[c].empty()) consumer_errors[c] = order;
        append_seen(records, delivered[c]);
        if (loop % 2 == 0) {
          topic.commit("g", id);
        } else {
          try {
            topic.commit("g", id, next_offsets(records));
          } catch (const kgroups::NotAssignedError&) {
            stale_commits.fetch_add(1);  // lost the partition in a rebalance: refused, fine
          }
        }
        if (loop % 23 == 22) {
          topic.leave("g", id);
          topic.join("g", id);
        }
      }
      topic.leave("g", id);
    });
  }

  // Membership churn in "g": members that join and leave without polling.
  std::thread churn([&] {
    start.arrive_and_wait();
    for (int i = 0; i < kMaxLoops && !writers_done.load() && in_time(started); ++i) {
      const std::string id = "x" + std::to_string(i % 4);
      topic.join("g", id);
      std::this_thread::yield();
      topic.leave("g", id);
    }
  });

  // The lone member of group "solo": never rebalanced after joining, so it must
  // see every partition exactly in offset order, with no gap and no repeat.
  std::vector<Seen> solo_seen;
  std::string solo_error;
  std::thread solo([&] {
    topic.join("solo", "only");
    start.arrive_and_wait();
    std::vector<std::int64_t> next(kPartitions, 0);
    const auto take = [&](const std::vector<kgroups::Record>& records) {
      for (const kgroups::Record& record : records) {
        if (record.offset != next[record.partition] && solo_error.empty()) {
          solo_error = "solo expected p" + std::to_string(record.partition) + "@" +
                       std::to_string(next[record.partition]) + ", got @" +
                       std::to_string(record.offset);
        }
        next[record.partition] = record.offset + 1;
      }
      append_seen(records, solo_seen);
    };
    while (!writers_done.load() && in_time(started)) {
      const auto records = topic.poll("solo", "only", 37);
      if (records.empty()) std::this_thread::yield();
      take(records);
      topic.commit("solo", "only");
    }
    for (int loop = 0; loop < kMaxLoops; ++loop) {  // writers are done: read to the end
      const auto records = topic.poll("solo", "only", 500);
      if (records.empty()) break;
      take(records);
    }
    topic.commit("solo", "only");
  });

  // A reader: end offsets never go down, committed offsets never pass them, and
  // the solo group's committed offsets (its lone member only moves forward)
  // never go down either.
  std::string reader_error;
  std::thread reader([&] {
    start.arrive_and_wait();
    std::vector<std::int64_t> last_end(kPartitions, 0);
    std::vector<std::int64_t> last_solo(kPartitions, 0);
    for (int loop = 0; loop < kMaxLoops && !writers_done.load() && in_time(started); ++loop) {
      const int p = loop % kPartitions;
      const std::int64_t committed = topic.committed("g", p);
      const std::int64_t end = topic.end_offset(p);
      if (reader_error.empty() && end < last_end[p]) {
        reader_error = "end_offset(" + std::to_string(p) + ") went down";
      }
      if (reader_error.empty() && (committed < 0 || committed > end)) {
        reader_error = "committed(g, " + std::to_string(p) + ") = " + std::to_string(committed) +
                       " outside 0.." + std::to_string(end);
      }
      last_end[p] = end;
      const std::int64_t solo_committed = topic.committed("solo", p);
      if (reader_error.empty() && solo_committed < last_solo[p]) {
        reader_error = "committed(solo, " + std::to_string(p) + ") went down";
      }
      last_solo[p] = solo_committed;
      (void)topic.assignment("g", "c" + std::to_string(loop % kConsumers));
      std::this_thread::yield();
    }
  });

  for (std::thread& writer : writers) writer.join();
  writers_done.store(true);
  for (std::thread& consumer : consumers) consumer.join();
  churn.join();
  solo.join();
  reader.join();

  for (int c = 0; c < kConsumers; ++c) EXPECT_EQ(consumer_errors[c], "") << "consumer c" << c;
  EXPECT_EQ(solo_error, "");
  EXPECT_EQ(reader_error, "");

  // Offsets are dense per partition: the appends' offsets are exactly 0..n-1.
  std::map<PartitionOffset, const Seen*> appended_at;
  std::vector<std::vector<std::int64_t>> offsets(kPartitions);
  for (const auto& writer : appended) {
    for (const Seen& record : writer) {
      ASSERT_GE(record.partition, 0);
      ASSERT_LT(record.partition, kPartitions);
      EXPECT_EQ(record.partition, kgroups::partition_for(record.key, kPartitions));
      offsets[record.partition].push_back(record.offset);
      EXPECT_TRUE(
          appended_at.emplace(PartitionOffset{record.partition, record.offset}, &record).second)
          << "two appends got p" << record.partition << "@" << record.offset;
    }
  }
  std::int64_t total = 0;
  for (int p = 0; p < kPartitions; ++p) {
    std::sort(offsets[p].begin(), offsets[p].end());
    for (std::size_t i = 0; i < offsets[p].size(); ++i) {
      ASSERT_EQ(offsets[p][i], static_cast<std::int64_t>(i)) << "partition " << p;
    }
    EXPECT_EQ(topic.end_offset(p), static_cast<std::int64_t>(offsets[p].size()));
    total += static_cast<std::int64_t>(offsets[p].size());
  }
  ASSERT_EQ(total, kWriters * kRecordsPerWriter);

  // Final drain of "g": one member owns everything from the committed offsets.
  RecordProperty("consumer_polls", consumer_polls.load());
  RecordProperty("stale_commits_refused", stale_commits.load());
  topic.join("g", "final");
  ASSERT_EQ(topic.assignment("g", "final").size(), static_cast<std::size_t>(kPartitions));
  std::vector<Seen> drained;
  for (int loop = 0; loop < kMaxLoops; ++loop) {
    const auto records = topic.poll("g", "final", 500);
    if (records.empty()) break;
    ASSERT_EQ(check_poll_order(records), "");
    append_seen(records, drained);
  }
  topic.commit("g", "final");
  for (int p = 0; p < kPartitions; ++p) {
    EXPECT_EQ(topic.committed("g", p), topic.end_offset(p)) << "partition " << p;
    EXPECT_EQ(topic.committed("solo", p), topic.end_offset(p)) << "partition " << p;
  }

  // Every delivered record is the appended one; every appended one was delivered.
  std::map<PartitionOffset, int> deliveries;
  const auto check_delivered = [&](const std::vector<Seen>& seen, const char* who) {
    for (const Seen& record : seen) {
      const auto found = appended_at.find({record.partition, record.offset});
      ASSERT_NE(found, appended_at.end())
          << who << " got a record never appended: p" << record.partition << "@" << record.offset;
      EXPECT_EQ(record.key, found->second->key)
          << who << " p" << record.partition << "@" << record.offset;
      EXPECT_EQ(record.value, found->second->value)
          << who << " p" << record.partition << "@" << record.offset;
    }
  };
  for (int c = 0; c < kConsumers; ++c) {
    check_delivered(delivered[c], "consumer");
    for (const Seen& record : delivered[c]) ++deliveries[{record.partition, record.offset}];
  }
  check_delivered(drained, "final drain");
  for (const Seen& record : drained) ++deliveries[{record.partition, record.offset}];
  std::size_t missing = 0;
  for (const auto& [position, record] : appended_at)
    missing += deliveries.count(position) == 0 ? 1 : 0;
  EXPECT_EQ(missing, 0U) << "appended records that group g never delivered";
  EXPECT_EQ(deliveries.size(), appended_at.size());

  check_delivered(solo_seen, "solo");
  EXPECT_EQ(solo_seen.size(), appended_at.size()) << "solo must see every record exactly once";
}

// SPEC.md: "Every call is atomic". One writer appends to partition 0 and then
// to partition 1, over and over, so at every instant partition 0 holds as many
// records as partition 1 or one more. A poll that reads everything is one
// instant's view, so after each poll the consumer's positions (its record
// counts) must keep that relation.
TEST(TopicConcurrency, PollSeesOneInstantOfEveryPartition) {
  constexpr int kRounds = 20'000;
  kgroups::Topic topic(2);
  std::string keys[2];
  for (int i = 0; keys[0].empty() || keys[1].empty(); ++i) {
    const std::string key = "key-" + std::to_string(i);
    keys[kgroups::partition_for(key, 2)] = key;
  }
  topic.join("snap", "c");
  const auto started = std::chrono::steady_clock::now();
  std::atomic<bool> done{false};
  std::latch start(2);
  std::thread writer([&] {
    start.arrive_and_wait();
    for (int i = 0; i < kRounds; ++i) {
      topic.append(keys[0], "v");
      topic.append(keys[1], "v");
      if (i % 64 == 63) std::this_thread::yield();
    }
    done.store(true);
  });
  std::int64_t count[2] = {0, 0};
  std::string error;
  int polls = 0;
  start.arrive_and_wait();
  for (bool last = false; !last && in_time(started); ++polls) {
    last = done.load();  // a poll after the writer finished sees everything
    for (const kgroups::Record& record : topic.poll("snap", "c", 1'000'000)) {
      if (error.empty() && record.offset != count[record.partition]) {
        error = "p" + std::to_string(record.partition) + " jumped to offset " +
                std::to_string(record.offset);
      }
      count[record.partition] = record.offset + 1;
    }
    if (error.empty() && !(count[1] <= count[0] && count[0] <= count[1] + 1)) {
      error = "one poll saw " + std::to_string(count[0]) + " records of partition 0 and " +
              std::to_string(count[1]) + " of partition 1";
    }
    std::this_thread::yield();
  }
  writer.join();
  RecordProperty("polls", polls);
  EXPECT_EQ(error, "");
  EXPECT_EQ(count[0], kRounds);
  EXPECT_EQ(count[1], kRounds);
}

}  // namespace
