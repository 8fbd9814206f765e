// SPDX-License-Identifier: Apache-2.0
//
// Sequence: one seeded random sequence of Topic operations (valid and invalid)
// run on a fresh kgroups::Topic and a fresh Oracle side by side, comparing the
// outcome of every call and, at regular points, the whole observable state.
// Mix sets how often each operation is drawn. A sequence with random options
// builds both with TopicOptions drawn from the seed (now and then an unknown
// value) and also compares lag and the rebalance history; a sequence without
// them builds Topic(n), as the lab does. Not thread-safe.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "kgroups/kgroups.h"
#include "oracle.h"
#include "outcome.h"

namespace kgroups_model {

// Relative weights of the operations a sequence draws.
struct Mix {
  int append = 30;
  int join = 8;
  int leave = 6;
  int poll = 20;
  int commit = 8;
  int commit_offsets = 12;
  int committed = 5;
  int assignment = 5;
  int end_offset = 4;
  int partition_for = 2;
  // Drawn only where set (the options runs); the defaults keep the lab's runs as they were.
  int lag = 0;
  int rebalances = 0;
  int partition_for_named = 0;  // partition_for with a partitioner argument
};

// One random sequence on a fresh Topic and Oracle.
class Sequence {
 public:
  Sequence(std::uint64_t seed, const Mix& mix, bool random_options = false)
      : rng_(seed), mix_(mix), random_options_(random_options) {
    if (random_options_) options_ = pick_options(seed);
    static const std::vector<std::string> kGroups = {"g", "h", "", "\xc3\xa9t\xc3\xa9",
                                                     std::string("g\0", 2)};
    static const std::vector<std::string> kConsumers = {
        "A", "B", "C", "D", "", "a", "Z", "\xff", "\x80", "AB", std::string("A\0", 2)};
    groups_ = random_subset(kGroups);
    consumers_ = random_subset(kConsumers);
    for (int i = 0; i < 12; ++i) keys_.push_back("key-" + std::to_string(i));
    keys_.emplace_back();
  }

  // Runs up to `steps` operations; returns "" or a description of the first mismatch.
  std::string run(int steps) {
    const int num_partitions =
        pick(10) == 0 ? static_cast<int>(pick(4)) - 2 : 1 + static_cast<int>(pick(8));
    std::string mismatch;
    if (random_options_) {
      note("Topic(" + std::to_string(num_partitions) + ", {" + quote(options_.partitioner) + ", " +
           quote(options_.assignor) + ", " + quote(options_.auto_offset_reset) + "})");
      mismatch = compare(capture<Nothing>([&] {
                           topic_ = std::make_unique<kgroups::Topic>(num_partitions, options_);
                           return Nothing{};
                         }),
                         capture<Nothing>([&] {
                           oracle_ = std::make_unique<Oracle>(num_partitions, options_);
                           return Nothing{};
                         }));
    } else {
      note("Topic(" + std::to_string(num_partitions) + ")");
      mismatch = compare(capture<Nothing>([&] {
                           topic_ = std::make_unique<kgroups::Topic>(num_partitions);
                           return Nothing{};
                         }),
                         capture<Nothing>([&] {
                           oracle_ = std::make_unique<Oracle>(num_partitions);
                           return Nothing{};
                         }));
    }
    if (!mismatch.empty()) return mismatch;
    if (!oracle_) return "";
    for (int step = 0; step < steps; ++step) {
      std::string mismatch = random_step();
      if (!mismatch.empty()) return mismatch;
      if (step % 16 == 15) {
        std::string state = compare_state(false);
        if (!state.empty()) return state;
      }
    }
    return compare_state(true);
  }

 private:
  // Options from their own generator, so that the operations drawn after them
  // follow the seed as in a run without options. One run in 25 has a value
  // that is no choice (construction must then fail in both).
  static kgroups::TopicOptions pick_options(std::uint64_t seed) {
    std::mt19937_64 rng(seed ^ 0x6f7074696f6e73ULL);
    static const std::vector<std::string> kPartitioners = {"fnv1a", "murmur2"};
    static const std::vector<std::string> kAssignors = {"range", "roundrobin", "sticky",
                                                        "cooperative-sticky"};
    static const std::vector<std::string> kResets = {"earliest", "latest", "none"};
    static const std::vector<std::string> kUnknown = {"",         "Range",       "murmur3",
                                                      "smallest", "round-robin", "FNV1A"};
    kgroups::TopicOptions options;
    options.partitioner = kPartitioners[rng() % kPartitioners.size()];
    options.assignor = kAssignors[rng() % kAssignors.size()];
    options.auto_offset_reset = kResets[rng() % kResets.size()];
    if (rng() % 25 == 0) {
      const std::string& unknown = kUnknown[rng() % kUnknown.size()];
      switch (rng() % 3) {
        case 0:
          options.partitioner = unknown;
          break;
        case 1:
          options.assignor = unknown;
          break;
        default:
          options.auto_offset_reset = unknown;
          break;
      }
    }
    return options;
  }

  std::size_t pick(std::size_t bound) { return static_cast<std::size_t>(rng_() % bound); }
  int pick_int(int low, int high) { return low + static_cast<int>(pick(high - low + 1)); }

  // A random non-empty subset of `pool`, in random order.
  std::vector<std::string> random_subset(std::vector<std::string> pool) {
    std::shuffle(pool.begin(), pool.end(), rng_);
    pool.resize(1 + pick(pool.size()));
    return pool;
  }

  const std::string& pick_group() { return groups_[pick(groups_.size())]; }
  const std::string& pick_consumer() { return consumers_[pick(consumers_.size())]; }

  std::string pick_key() {
    if (pick(5) != 0) return keys_[pick(keys_.size())];
    std::string bytes(pick(6), '\0');
    for (char& byte : bytes) byte = static_cast<char>(pick(256));
    return bytes;
  }

  // Mostly valid partitions, sometimes just outside the topic.
  int pick_partition() {
    const int n = oracle_->num_partitions();
    return pick(8) == 0 ? (pick(2) == 0 ? -1 - static_cast<int>(pick(3)) : n + pick_int(0, 2))
                        : pick_int(0, n - 1);
  }

  std::map<int, std::int64_t> pick_offsets(const std::string& group, const std::string& consumer) {
    const std::vector<int> assigned = oracle_->assignment(group, consumer);
    std::map<int, std::int64_t> offsets;
    const std::size_t size = pick(4);
    for (std::size_t i = 0; i < size; ++i) {
      const bool own = !assigned.empty() && pick(5) != 0;
      const int partition = own ? assigned[pick(assigned.size())] : pick_partition();
      std::int64_t end = 0;
      if (partition >= 0 && partition < oracle_->num_partitions()) {
        end = oracle_->end_offset(partition);
      }
      const std::int64_t offset = pick(8) == 0 ? (pick(2) == 0 ? -1 : end + 1 + pick_int(0, 3))
                                               : static_cast<std::int64_t>(pick(end + 1));
      offsets[partition] = offset;
    }
    return offsets;
  }

  std::string random_step() {
    const int total = mix_.append + mix_.join + mix_.leave + mix_.poll + mix_.commit +
                      mix_.commit_offsets + mix_.committed + mix_.assignment + mix_.end_offset +
                      mix_.partition_for + mix_.lag + mix_.rebalances + mix_.partition_for_named;
    int roll = static_cast<int>(pick(total));
    const auto take = [&roll](int weight) {
      roll -= weight;
      return roll < 0;
    };
    if (take(mix_.append)) return append();
    if (take(mix_.join)) return join_or_leave(true);
    if (take(mix_.leave)) return join_or_leave(false);
    if (take(mix_.poll)) return poll();
    if (take(mix_.commit)) return commit();
    if (take(mix_.commit_offsets)) return commit_offsets();
    if (take(mix_.committed)) return committed(pick_group(), pick_partition());
    if (take(mix_.assignment)) return assignment(pick_group(), pick_consumer());
    if (take(mix_.end_offset)) return end_offset(pick_partition());
    if (take(mix_.lag)) return lag(pick_group());
    if (take(mix_.rebalances)) return rebalances(pick_group());
    if (take(mix_.partition_for_named)) return partition_for_named();
    return partition_for();
  }

  std::string append() {
    const std::string key = pick_key();
    const std::string value = "value-" + std::to_string(step_++);
    const auto key_encoding = static_cast<kgroups::Encoding>(pick(2));
    const auto value_encoding = static_cast<kgroups::Encoding>(pick(2));
    note("append(" + quote(key) + ", " + quote(value) + ")");
    std::string source_key = key;  // the topic gets buffers that change afterwards
    std::string source_value = value;
    const auto actual = capture<std::pair<int, std::int64_t>>(
        [&] { return topic_->append(source_key, source_value, key_encoding, value_encoding); });
    source_key.assign(source_key.size(), '#');
    source_value.assign(source_value.size(), '#');
    const auto expected = capture<std::pair<int, std::int64_t>>(
        [&] { return oracle_->append(key, value, key_encoding, value_encoding); });
    return compare(actual, expected);
  }

  std::string join_or_leave(bool join) {
    const std::string& group = pick_group();
    const std::string& consumer = pick_consumer();
    note(std::string(join ? "join(" : "leave(") + quote(group) + ", " + quote(consumer) + ")");
    const auto actual = capture<Nothing>([&] {
      join ? topic_->join(group, consumer) : topic_->leave(group, consumer);
      return Nothing{};
    });
    const auto expected = capture<Nothing>([&] {
      join ? oracle_->join(group, consumer) : oracle_->leave(group, consumer);
      return Nothing{};
    });
    return compare(actual, expected);
  }

  std::string poll() {
    const std::string& group = pick_group();
    const std::string& consumer = pick_consumer();
    static const int kMaxRecords[] = {-1, -7, 0, 1, 2, 3, 5, 8, 20, 100};
    const bool use_default = pick(4) == 0;
    const int max_records = use_default ? kgroups::kDefaultMaxRecords : kMaxRecords[pick(10)];
    note("poll(" + quote(group) + ", " + quote(consumer) +
         (use_default ? "" : ", " + std::to_string(max_records)) + ")");
    const auto actual = capture<std::vector<OracleRecord>>([&] {
      const std::vector<kgroups::Record> records =
          use_default ? topic_->poll(group, consumer) : topic_->poll(group, consumer, max_records);
      kept_views_.insert(kept_views_.end(), records.begin(), records.end());
      return own(records);
    });
    const auto expected = capture<std::vector<OracleRecord>>([&] {
      std::vector<OracleRecord> records = oracle_->poll(group, consumer, max_records);
      kept_copies_.insert(kept_copies_.end(), records.begin(), records.end());
      return records;
    });
    return compare(actual, expected);
  }

  std::string commit() {
    const std::string& group = pick_group();
    const std::string& consumer = pick_consumer();
    note("commit(" + quote(group) + ", " + quote(consumer) + ")");
    const auto actual = capture<Nothing>([&] {
      topic_->commit(group, consumer);
      return Nothing{};
    });
    const auto expected = capture<Nothing>([&] {
      oracle_->commit(group, consumer);
      return Nothing{};
    });
    return compare(actual, expected);
  }

  std::string commit_offsets() {
    const std::string& group = pick_group();
    const std::string& consumer = pick_consumer();
    const std::map<int, std::int64_t> offsets = pick_offsets(group, consumer);
    note("commit(" + quote(group) + ", " + quote(consumer) + ", " + describe(offsets) + ")");
    const auto actual = capture<Nothing>([&] {
      topic_->commit(group, consumer, offsets);
      return Nothing{};
    });
    const auto expected = capture<Nothing>([&] {
      oracle_->commit(group, consumer, offsets);
      return Nothing{};
    });
    return compare(actual, expected);
  }

  std::string committed(const std::string& group, int partition) {
    note("committed(" + quote(group) + ", " + std::to_string(partition) + ")");
    return compare(capture<std::int64_t>([&] { return topic_->committed(group, partition); }),
                   capture<std::int64_t>([&] { return oracle_->committed(group, partition); }));
  }

  std::string assignment(const std::string& group, const std::string& consumer) {
    note("assignment(" + quote(group) + ", " + quote(consumer) + ")");
    return compare(capture<std::vector<int>>([&] { return topic_->assignment(group, consumer); }),
                   capture<std::vector<int>>([&] { return oracle_->assignment(group, consumer); }));
  }

  std::string end_offset(int partition) {
    note("end_offset(" + std::to_string(partition) + ")");
    return compare(capture<std::int64_t>([&] { return topic_->end_offset(partition); }),
                   capture<std::int64_t>([&] { return oracle_->end_offset(partition); }));
  }

  std::string partition_for() {
    const std::string key = pick_key();
    const int n = pick_int(-2, 12);
    note("partition_for(" + quote(key) + ", " + std::to_string(n) + ")");
    return compare(capture<std::int64_t>([&] { return kgroups::partition_for(key, n); }),
                   capture<std::int64_t>([&] { return Oracle::partition_for(key, n); }));
  }

  std::string lag(const std::string& group) {
    note("lag(" + quote(group) + ")");
    return compare(capture<std::map<int, std::int64_t>>([&] { return topic_->lag(group); }),
                   capture<std::map<int, std::int64_t>>([&] { return oracle_->lag(group); }));
  }

  std::string rebalances(const std::string& group) {
    note("rebalances(" + quote(group) + ")");
    return compare(
        capture<std::vector<kgroups::Rebalance>>([&] { return topic_->rebalances(group); }),
        capture<std::vector<kgroups::Rebalance>>([&] { return oracle_->rebalances(group); }));
  }

  std::string partition_for_named() {
    static const std::vector<std::string> kPartitioners = {"fnv1a", "murmur2", "murmur2", "Murmur2",
                                                           ""};
    const std::string key = pick_key();
    const int n = pick_int(-2, 12);
    const std::string& partitioner = kPartitioners[pick(kPartitioners.size())];
    note("partition_for(" + quote(key) + ", " + std::to_string(n) + ", " + quote(partitioner) +
         ")");
    return compare(
        capture<std::int64_t>([&] { return kgroups::partition_for(key, n, partitioner); }),
        capture<std::int64_t>([&] { return Oracle::partition_for(key, n, partitioner); }));
  }

  // Every end offset, committed offset and assignment (with random options also
  // every lag and rebalance history); with `drain`, also every
  // consumer's remaining records (positions), and the records of earlier polls.
  std::string compare_state(bool drain) {
    note(drain ? "<compare whole state and drain>" : "<compare state>");
    for (int p = 0; p < oracle_->num_partitions(); ++p) {
      std::string mismatch = end_offset(p);
      for (const std::string& group : groups_) {
        if (mismatch.empty()) mismatch = committed(group, p);
      }
      if (!mismatch.empty()) return mismatch;
    }
    for (const std::string& group : groups_) {
      for (const std::string& consumer : consumers_) {
        std::string mismatch = assignment(group, consumer);
        if (!mismatch.empty()) return mismatch;
      }
    }
    if (random_options_) {
      for (const std::string& group : groups_) {
        std::string mismatch = lag(group);
        if (mismatch.empty()) mismatch = rebalances(group);
        if (!mismatch.empty()) return mismatch;
      }
    }
    if (!drain) return "";
    for (const std::string& group : groups_) {
      for (const std::string& consumer : consumers_) {
        note("poll(" + quote(group) + ", " + quote(consumer) + ", 1000000)");
        std::string mismatch = compare(capture<std::vector<OracleRecord>>([&] {
                                         return own(topic_->poll(group, consumer, 1'000'000));
                                       }),
                                       capture<std::vector<OracleRecord>>([&] {
                                         return oracle_->poll(group, consumer, 1'000'000);
                                       }));
        if (!mismatch.empty()) return mismatch;
      }
    }
    note("<records of earlier polls still read the same>");
    return compare(Outcome<std::vector<OracleRecord>>{"", own(kept_views_)},
                   Outcome<std::vector<OracleRecord>>{"", kept_copies_});
  }

  void note(std::string line) { log_.push_back(std::move(line)); }

  // "" if the Topic did what the oracle did, else the operations and both outcomes.
  template <typename T>
  std::string compare(const Outcome<T>& actual, const Outcome<T>& expected) {
    if (actual == expected) return "";
    std::string text = "operations:\n";
    for (const std::string& line : log_) text += "  " + line + "\n";
    return text + "last call: Topic gave   " + describe(actual) + "\n           oracle gave  " +
           describe(expected);
  }

  std::mt19937_64 rng_;
  Mix mix_;
  bool random_options_;
  kgroups::TopicOptions options_;  // used only with random_options_
  std::vector<std::string> groups_;
  std::vector<std::string> consumers_;
  std::vector<std::string> keys_;
  std::unique_ptr<kgroups::Topic> topic_;
  std::unique_ptr<Oracle> oracle_;
  std::vector<kgroups::Record> kept_views_;  // every record polled from topic_
  std::vector<OracleRecord> kept_copies_;    // the oracle's records of the same polls
  std::vector<std::string> log_;
  int step_ = 0;
};

}  // namespace kgroups_model
