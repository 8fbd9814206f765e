// SPDX-License-Identifier: Apache-2.0
//
// Randomized differential test of share groups (SPEC.md, "Share groups"):
// seeded random sequences of share_join, share_leave, append, share_poll,
// acknowledge (every type, records held and not held, implicit), advance_clock,
// consumer joins on the same names, and the state queries, run on a
// kgroups::Topic with random share options and on the ShareOracle of
// share_oracle.h, comparing every result and every error after each call. A
// failure prints the seed and the operations; rerun one sequence with
// KGROUPS_MODEL_SEED=<seed> KGROUPS_MODEL_SEQUENCES=1.

#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "kgroups/kgroups.h"
#include "seeded_runs.h"
#include "share_oracle.h"

namespace {

using kgroups::AcknowledgeType;
using kgroups_model::ShareOracle;
using Records = std::vector<std::pair<int, std::int64_t>>;

// What a call did: its result printed, or the kind of error it threw (with a
// NotAcquiredError's record).
std::string outcome(const std::function<std::string()>& call) {
  try {
    return call();
  } catch (const kgroups::NotAcquiredError& error) {
    return "NotAcquiredError(" + std::to_string(error.partition()) + ", " +
           std::to_string(error.offset()) + ")";
  } catch (const std::invalid_argument&) {
    return "invalid_argument";
  } catch (const std::out_of_range&) {
    return "out_of_range";
  }
}

std::string print(const std::vector<kgroups::ShareRecord>& records) {
  std::ostringstream text;
  for (const kgroups::ShareRecord& r : records) {
    text << "{p" << r.record.partition << " @" << r.record.offset << " " << r.record.value << " x"
         << r.delivery_count << "}";
  }
  return text.str();
}

std::string print(const std::vector<ShareOracle::Delivered>& records) {
  std::ostringstream text;
  for (const ShareOracle::Delivered& r : records) {
    text << "{p" << r.partition << " @" << r.offset << " " << r.value << " x" << r.delivery_count
         << "}";
  }
  return text.str();
}

std::string print(const std::vector<int>& partitions) {
  std::string text = "[";
  for (const int p : partitions) text += std::to_string(p) + " ";
  return text + "]";
}

std::string print(const kgroups::Topic::SharePartitionState& s) {
  std::ostringstream text;
  text << "start " << s.start_offset << " end " << s.end_offset << " available " << s.available
       << " acquired " << s.acquired << " acknowledged " << s.acknowledged << " archived "
       << s.archived << " deliveries " << s.deliveries << " redeliveries " << s.redeliveries;
  return text.str();
}

const char* type_name(AcknowledgeType type) {
  switch (type) {
    case AcknowledgeType::kAccept:
      return "accept";
    case AcknowledgeType::kRelease:
      return "release";
    case AcknowledgeType::kReject:
      return "reject";
    case AcknowledgeType::kGap:
      return "gap";
  }
  return "?";
}

class ShareSequence {
 public:
  explicit ShareSequence(std::uint64_t seed) : rng_(seed) {}

  // Runs `steps` operations; returns "" or the first mismatch with the operations so far.
  std::string run(int steps) {
    const int num_partitions = 1 + static_cast<int>(pick(4));
    kgroups::TopicOptions options;
    options.share_auto_offset_reset = pick(2) == 0 ? "latest" : "earliest";
    const std::int64_t durations[] = {1, 3, 10, 30'000};
    options.record_lock_duration_ms = durations[pick(4)];
    options.delivery_count_limit = 2 + static_cast<int>(pick(3));
    options.partition_max_record_locks = 100 + static_cast<int>(pick(2)) * 50;
    log_ << "Topic(" << num_partitions << ", reset " << options.share_auto_offset_reset << ", lock "
         << options.record_lock_duration_ms << " ms, limit " << options.delivery_count_limit
         << ", max locks " << options.partition_max_record_locks << ")\n";
    topic_ = std::make_unique<kgroups::Topic>(num_partitions, options);
    oracle_ = std::make_unique<ShareOracle>(num_partitions, options);
    for (int step = 0; step < steps; ++step) {
      if (!this->step()) return log_.str();
    }
    return "";
  }

 private:
  std::uint64_t pick(std::uint64_t n) { return rng_() % n; }
  const std::string& group() {
    static const std::vector<std::string> kGroups = {"q", "r", "g"};
    return kGroups[pick(kGroups.size())];
  }
  const std::string& member() {
    static const std::vector<std::string> kMembers = {"A", "B", "C", "", "AB", "zz"};
    return kMembers[pick(kMembers.size())];
  }
  AcknowledgeType type() {
    const std::uint64_t draw = pick(10);
    if (draw == 0) return AcknowledgeType::kGap;
    if (draw < 5) return AcknowledgeType::kAccept;
    return draw < 8 ? AcknowledgeType::kRelease : AcknowledgeType::kReject;
  }

  // Compares the outcomes; logs the operation; false on a mismatch.
  bool same(const std::string& operation, const std::string& actual, const std::string& expected) {
    log_ << operation << " -> " << expected << "\n";
    if (actual == expected) return true;
    log_ << "MISMATCH: Topic gave " << actual << "\n";
    return false;
  }

  bool step() {
    const std::string& g = group();
    const std::string& m = member();
    const int n = oracle_->num_partitions();
    switch (pick(16)) {
      case 0:
      case 1: {
        const int count = pick(8) == 0 ? 60 : 1 + static_cast<int>(pick(4));
        for (int i = 0; i < count; ++i) {
          const std::string key = "k" + std::to_string(pick(20));
          const std::string value = "v" + std::to_string(next_value_++);
          const auto [partition, offset] = topic_->append(key, value);
          if (offset != oracle_->end_offset(partition)) {
            log_ << "append " << key << ": MISMATCH offset " << offset << "\n";
            return false;
          }
          oracle_->append(partition, value);
        }
        log_ << "append x" << count << "\n";
        return true;
      }
      case 2:
        return same("share_join(" + g + ", " + m + ")", outcome([&] {
                      topic_->share_join(g, m);
                      return std::string("ok");
                    }),
                    outcome([&] {
                      oracle_->share_join(g, m);
                      return std::string("ok");
                    }));
      case 3:
        return same("share_leave(" + g + ", " + m + ")", outcome([&] {
                      topic_->share_leave(g, m);
                      return std::string("ok");
                    }),
                    outcome([&] {
                      oracle_->share_leave(g, m);
                      return std::string("ok");
                    }));
      case 4:
      case 5:
      case 6: {
        const int max_records_choices[] = {-1, 0, 1, 2, 3, 5, 100, 200};
        const int max_records = max_records_choices[pick(8)];
        return same("share_poll(" + g + ", " + m + ", " + std::to_string(max_records) + ")",
                    outcome([&] { return print(topic_->share_poll(g, m, max_records)); }),
                    outcome([&] { return print(oracle_->share_poll(g, m, max_records)); }));
      }
      case 7:
      case 8:
      case 9: {
        // Some held records (a few shuffled), now and then one not held or named twice.
        Records records = oracle_->held(g, m);
        std::shuffle(records.begin(), records.end(), rng_);
        records.resize(std::min<std::size_t>(records.size(), pick(5)));
        if (pick(3) == 0 || records.empty()) {
          const int partition = static_cast<int>(pick(static_cast<std::uint64_t>(n) + 1));
          records.insert(records.begin() + static_cast<std::ptrdiff_t>(pick(records.size() + 1)),
                         {partition, static_cast<std::int64_t>(pick(40))});
        }
        if (pick(6) == 0) records.push_back(records.front());
        const AcknowledgeType t = type();
        std::string named;
        for (const auto& [p, o] : records)
          named += std::to_string(p) + "@" + std::to_string(o) + " ";
        return same("acknowledge(" + g + ", " + m + ", [" + named + "], " + type_name(t) + ")",
                    outcome([&] {
                      topic_->acknowledge(g, m, records, t);
                      return std::string("ok");
                    }),
                    outcome([&] {
                      oracle_->acknowledge(g, m, records, t);
                      return std::string("ok");
                    }));
      }
      case 10: {
        const AcknowledgeType t = type();
        return same("acknowledge(" + g + ", " + m + ", " + type_name(t) + ")", outcome([&] {
                      topic_->acknowledge(g, m, t);
                      return std::string("ok");
                    }),
                    outcome([&] {
                      oracle_->acknowledge_all(g, m, t);
                      return std::string("ok");
                    }));
      }
      case 11:
      case 12: {
        const std::int64_t choices[] = {-1, 0, 1, 2, 5, 10, 30'000};
        const std::int64_t ms = choices[pick(7)];
        return same("advance_clock(" + std::to_string(ms) + ")", outcome([&] {
                      topic_->advance_clock(ms);
                      return std::to_string(topic_->clock());
                    }),
                    outcome([&] {
                      oracle_->advance_clock(ms);
                      return std::to_string(oracle_->clock());
                    }));
      }
      case 13:
        return same("join(" + g + ", " + m + ")", outcome([&] {
                      topic_->join(g, m);
                      return std::string("ok");
                    }),
                    outcome([&] {
                      oracle_->join(g);
                      return std::string("ok");
                    }));
      case 14:
        return same("share_assignment(" + g + ", " + m + ")",
                    outcome([&] { return print(topic_->share_assignment(g, m)); }),
                    outcome([&] { return print(oracle_->share_assignment(g, m)); }));
      default: {
        const int partition = static_cast<int>(pick(static_cast<std::uint64_t>(n) + 2)) - 1;
        return same("share_partition_state(" + g + ", " + std::to_string(partition) + ")",
                    outcome([&] {
                      return print(topic_->share_partition_state(g, partition)) + " / " +
                             std::to_string(topic_->share_start_offset(g, partition));
                    }),
                    outcome([&] {
                      const auto state = oracle_->share_partition_state(g, partition);
                      return print(state) + " / " + std::to_string(state.start_offset);
                    }));
      }
    }
  }

  std::mt19937_64 rng_;
  std::unique_ptr<kgroups::Topic> topic_;
  std::unique_ptr<ShareOracle> oracle_;
  std::ostringstream log_;
  int next_value_ = 0;
};

void run_sequences(std::uint64_t default_seed, std::uint64_t default_count, int steps) {
  kgroups_model::run_seeded(default_seed, default_count,
                            [steps](std::uint64_t seed) { return ShareSequence(seed).run(steps); });
}

// The oracle's own assignor against SPEC.md's example (SG2), so a mistake in it cannot
// hide behind the same mistake in the engine.
TEST(ShareModel, OracleFollowsTheSpecExample) {
  EXPECT_EQ(ShareOracle::java_hash("A"), 65);
  EXPECT_EQ(ShareOracle::java_hash("AB"), 65 * 31 + 66);
  ShareOracle six(6, kgroups::TopicOptions{});
  six.share_join("q", "A");
  EXPECT_EQ(six.share_assignment("q", "A"), (std::vector<int>{0, 1, 2, 3, 4, 5}));
  six.share_join("q", "B");
  EXPECT_EQ(six.share_assignment("q", "B"), (std::vector<int>{0}));
  six.share_leave("q", "A");
  EXPECT_EQ(six.share_assignment("q", "B"), (std::vector<int>{0, 1, 2, 3, 4, 5}));
  EXPECT_THROW(six.join("q"), std::invalid_argument);
}

TEST(ShareModel, RandomSequencesMatchTheOracle) { run_sequences(93200000, 500, 150); }

TEST(ShareModel, LongSequencesMatchTheOracle) { run_sequences(93300000, 10, 3000); }

}  // namespace
