// SPDX-License-Identifier: Apache-2.0
//
// Randomized model-based test: thousands of seeded random operation sequences
// (valid and invalid) run on kgroups::Topic and on the Oracle of oracle.h,
// comparing every result and every error kind after each call, and the whole
// observable state (end offsets, committed offsets, assignments, positions) at
// regular points. A failure prints the sequence's seed and its operations;
// rerun one sequence with KGROUPS_MODEL_SEED=<seed> KGROUPS_MODEL_SEQUENCES=1.

#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "kgroups/kgroups.h"
#include "oracle.h"

namespace {

using kgroups_model::Oracle;
using kgroups_model::OracleRecord;

std::uint64_t EnvOr(const char* name, std::uint64_t fallback) {
  const char* text = std::getenv(name);
  return text == nullptr ? fallback : std::strtoull(text, nullptr, 10);
}

// Bytes as a readable literal: printable ASCII as is, anything else as \xNN.
std::string Quote(const std::string& bytes) {
  static const char* const kHex = "0123456789abcdef";
  std::string text = "\"";
  for (const char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f && c != '"' && c != '\\') {
      text += c;
    } else {
      text += "\\x";
      text += kHex[byte >> 4];
      text += kHex[byte & 0xf];
    }
  }
  return text + "\"";
}

std::string Describe(const OracleRecord& record) {
  return "p" + std::to_string(record.partition) + "@" + std::to_string(record.offset) + " " +
         Quote(record.key) + "=" + Quote(record.value) + " enc" +
         std::to_string(static_cast<int>(record.key_encoding)) +
         std::to_string(static_cast<int>(record.value_encoding));
}

std::string Describe(const std::vector<OracleRecord>& records) {
  std::string text = "[";
  for (const OracleRecord& record : records) text += Describe(record) + "; ";
  return text + "]";
}

std::string Describe(const std::vector<int>& partitions) {
  std::string text = "[";
  for (int p : partitions) text += std::to_string(p) + ",";
  return text + "]";
}

std::string Describe(const std::map<int, std::int64_t>& offsets) {
  std::string text = "{";
  for (const auto& [partition, offset] : offsets) {
    text += std::to_string(partition) + ":" + std::to_string(offset) + ",";
  }
  return text + "}";
}

OracleRecord Own(const kgroups::Record& record) {
  return {record.partition,          record.offset,       std::string(record.key),
          std::string(record.value), record.key_encoding, record.value_encoding};
}

std::vector<OracleRecord> Own(const std::vector<kgroups::Record>& records) {
  std::vector<OracleRecord> owned;
  for (const kgroups::Record& record : records) owned.push_back(Own(record));
  return owned;
}

std::string Describe(std::int64_t number) { return std::to_string(number); }

std::string Describe(const std::pair<int, std::int64_t>& appended) {
  return std::to_string(appended.first) + "@" + std::to_string(appended.second);
}

struct Nothing {
  friend bool operator==(Nothing, Nothing) = default;
};

std::string Describe(Nothing) { return ""; }

// What a call did: its value, or the kind of error it threw ("" if none). The
// NotAssignedError's partition is part of the error.
template <typename T>
struct Outcome {
  std::string error;
  T value{};

  friend bool operator==(const Outcome&, const Outcome&) = default;
};

template <typename T>
std::string Describe(const Outcome<T>& outcome) {
  return outcome.error.empty() ? "ok " + Describe(outcome.value) : outcome.error;
}

template <typename T, typename Call>
Outcome<T> Capture(Call&& call) {
  try {
    return {"", call()};
  } catch (const kgroups::NotAssignedError& error) {
    return {"NotAssignedError(partition " + std::to_string(error.partition()) + ")", {}};
  } catch (const std::invalid_argument&) {
    return {"invalid_argument", {}};
  } catch (const std::out_of_range&) {
    return {"out_of_range", {}};
  } catch (const std::exception& error) {
    return {std::string("unexpected exception: ") + error.what(), {}};
  }
}

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
};

// One random sequence on a fresh Topic and Oracle.
class Sequence {
 public:
  Sequence(std::uint64_t seed, const Mix& mix) : rng_(seed), mix_(mix) {
    static const std::vector<std::string> kGroups = {"g", "h", "", "\xc3\xa9t\xc3\xa9"};
    static const std::vector<std::string> kConsumers = {"A", "B", "C",    "D",    "",
                                                        "a", "Z", "\xff", "\x80", "AB"};
    groups_.assign(kGroups.begin(), kGroups.begin() + 1 + Pick(kGroups.size()));
    const std::size_t consumer_count = 1 + Pick(kConsumers.size());
    consumers_.assign(kConsumers.begin(), kConsumers.begin() + consumer_count);
    for (int i = 0; i < 12; ++i) keys_.push_back("key-" + std::to_string(i));
    keys_.push_back("");
  }

  // Runs up to `steps` operations; returns "" or a description of the first mismatch.
  std::string Run(int steps) {
    const int num_partitions = Pick(10) == 0 ? static_cast<int>(Pick(4)) - 2 : 1 + Pick(8);
    Log("Topic(" + std::to_string(num_partitions) + ")");
    const std::string mismatch = Compare(Capture<Nothing>([&] {
                                           topic_ =
                                               std::make_unique<kgroups::Topic>(num_partitions);
                                           return Nothing{};
                                         }),
                                         Capture<Nothing>([&] {
                                           oracle_ = std::make_unique<Oracle>(num_partitions);
                                           return Nothing{};
                                         }));
    if (!mismatch.empty()) return mismatch;
    if (!oracle_) return "";
    for (int step = 0; step < steps; ++step) {
      const std::string mismatch = Step();
      if (!mismatch.empty()) return mismatch;
      if (step % 16 == 15) {
        const std::string state = CompareState(false);
        if (!state.empty()) return state;
      }
    }
    return CompareState(true);
  }

 private:
  std::size_t Pick(std::size_t bound) { return static_cast<std::size_t>(rng_() % bound); }
  int PickInt(int low, int high) { return low + static_cast<int>(Pick(high - low + 1)); }

  const std::string& PickGroup() { return groups_[Pick(groups_.size())]; }
  const std::string& PickConsumer() { return consumers_[Pick(consumers_.size())]; }

  std::string PickKey() {
    if (Pick(5) != 0) return keys_[Pick(keys_.size())];
    std::string bytes(Pick(6), '\0');
    for (char& byte : bytes) byte = static_cast<char>(Pick(256));
    return bytes;
  }

  // Mostly valid partitions, sometimes just outside the topic.
  int PickPartition() {
    const int n = oracle_->num_partitions();
    return Pick(8) == 0 ? (Pick(2) == 0 ? -1 - static_cast<int>(Pick(3)) : n + PickInt(0, 2))
                        : PickInt(0, n - 1);
  }

  std::map<int, std::int64_t> PickOffsets(const std::string& group, const std::string& consumer) {
    const std::vector<int> assigned = oracle_->Assignment(group, consumer);
    std::map<int, std::int64_t> offsets;
    const std::size_t size = Pick(4);
    for (std::size_t i = 0; i < size; ++i) {
      const bool own = !assigned.empty() && Pick(5) != 0;
      const int partition = own ? assigned[Pick(assigned.size())] : PickPartition();
      std::int64_t end = 0;
      if (partition >= 0 && partition < oracle_->num_partitions()) {
        end = oracle_->EndOffset(partition);
      }
      const std::int64_t offset = Pick(8) == 0 ? (Pick(2) == 0 ? -1 : end + 1 + PickInt(0, 3))
                                               : static_cast<std::int64_t>(Pick(end + 1));
      offsets[partition] = offset;
    }
    return offsets;
  }

  std::string Step() {
    const int total = mix_.append + mix_.join + mix_.leave + mix_.poll + mix_.commit +
                      mix_.commit_offsets + mix_.committed + mix_.assignment + mix_.end_offset +
                      mix_.partition_for;
    int roll = static_cast<int>(Pick(total));
    const auto take = [&roll](int weight) {
      roll -= weight;
      return roll < 0;
    };
    if (take(mix_.append)) return Append();
    if (take(mix_.join)) return JoinOrLeave(true);
    if (take(mix_.leave)) return JoinOrLeave(false);
    if (take(mix_.poll)) return Poll();
    if (take(mix_.commit)) return Commit();
    if (take(mix_.commit_offsets)) return CommitOffsets();
    if (take(mix_.committed)) return Committed(PickGroup(), PickPartition());
    if (take(mix_.assignment)) return Assignment(PickGroup(), PickConsumer());
    if (take(mix_.end_offset)) return EndOffset(PickPartition());
    return PartitionFor();
  }

  std::string Append() {
    const std::string key = PickKey();
    const std::string value = "value-" + std::to_string(step_++);
    const auto key_encoding = static_cast<kgroups::Encoding>(Pick(2));
    const auto value_encoding = static_cast<kgroups::Encoding>(Pick(2));
    Log("append(" + Quote(key) + ", " + Quote(value) + ")");
    std::string source_key = key;  // the topic gets buffers that change afterwards
    std::string source_value = value;
    const auto actual = Capture<std::pair<int, std::int64_t>>(
        [&] { return topic_->append(source_key, source_value, key_encoding, value_encoding); });
    source_key.assign(source_key.size(), '#');
    source_value.assign(source_value.size(), '#');
    const auto expected = Capture<std::pair<int, std::int64_t>>(
        [&] { return oracle_->Append(key, value, key_encoding, value_encoding); });
    return Compare(actual, expected);
  }

  std::string JoinOrLeave(bool join) {
    const std::string& group = PickGroup();
    const std::string& consumer = PickConsumer();
    Log(std::string(join ? "join(" : "leave(") + Quote(group) + ", " + Quote(consumer) + ")");
    const auto actual = Capture<Nothing>([&] {
      join ? topic_->join(group, consumer) : topic_->leave(group, consumer);
      return Nothing{};
    });
    const auto expected = Capture<Nothing>([&] {
      join ? oracle_->Join(group, consumer) : oracle_->Leave(group, consumer);
      return Nothing{};
    });
    return Compare(actual, expected);
  }

  std::string Poll() {
    const std::string& group = PickGroup();
    const std::string& consumer = PickConsumer();
    static const int kMaxRecords[] = {-1, -7, 0, 1, 2, 3, 5, 8, 20, 100};
    const bool use_default = Pick(4) == 0;
    const int max_records = use_default ? kgroups::kDefaultMaxRecords : kMaxRecords[Pick(10)];
    Log("poll(" + Quote(group) + ", " + Quote(consumer) +
        (use_default ? "" : ", " + std::to_string(max_records)) + ")");
    const auto actual = Capture<std::vector<OracleRecord>>([&] {
      const std::vector<kgroups::Record> records =
          use_default ? topic_->poll(group, consumer) : topic_->poll(group, consumer, max_records);
      kept_views_.insert(kept_views_.end(), records.begin(), records.end());
      return Own(records);
    });
    const auto expected = Capture<std::vector<OracleRecord>>([&] {
      std::vector<OracleRecord> records = oracle_->Poll(group, consumer, max_records);
      kept_copies_.insert(kept_copies_.end(), records.begin(), records.end());
      return records;
    });
    return Compare(actual, expected);
  }

  std::string Commit() {
    const std::string& group = PickGroup();
    const std::string& consumer = PickConsumer();
    Log("commit(" + Quote(group) + ", " + Quote(consumer) + ")");
    const auto actual = Capture<Nothing>([&] {
      topic_->commit(group, consumer);
      return Nothing{};
    });
    const auto expected = Capture<Nothing>([&] {
      oracle_->Commit(group, consumer);
      return Nothing{};
    });
    return Compare(actual, expected);
  }

  std::string CommitOffsets() {
    const std::string& group = PickGroup();
    const std::string& consumer = PickConsumer();
    const std::map<int, std::int64_t> offsets = PickOffsets(group, consumer);
    Log("commit(" + Quote(group) + ", " + Quote(consumer) + ", " + Describe(offsets) + ")");
    const auto actual = Capture<Nothing>([&] {
      topic_->commit(group, consumer, offsets);
      return Nothing{};
    });
    const auto expected = Capture<Nothing>([&] {
      oracle_->Commit(group, consumer, offsets);
      return Nothing{};
    });
    return Compare(actual, expected);
  }

  std::string Committed(const std::string& group, int partition) {
    Log("committed(" + Quote(group) + ", " + std::to_string(partition) + ")");
    return Compare(Capture<std::int64_t>([&] { return topic_->committed(group, partition); }),
                   Capture<std::int64_t>([&] { return oracle_->Committed(group, partition); }));
  }

  std::string Assignment(const std::string& group, const std::string& consumer) {
    Log("assignment(" + Quote(group) + ", " + Quote(consumer) + ")");
    return Compare(Capture<std::vector<int>>([&] { return topic_->assignment(group, consumer); }),
                   Capture<std::vector<int>>([&] { return oracle_->Assignment(group, consumer); }));
  }

  std::string EndOffset(int partition) {
    Log("end_offset(" + std::to_string(partition) + ")");
    return Compare(Capture<std::int64_t>([&] { return topic_->end_offset(partition); }),
                   Capture<std::int64_t>([&] { return oracle_->EndOffset(partition); }));
  }

  std::string PartitionFor() {
    const std::string key = PickKey();
    const int n = PickInt(-2, 12);
    Log("partition_for(" + Quote(key) + ", " + std::to_string(n) + ")");
    return Compare(Capture<std::int64_t>([&] { return kgroups::partition_for(key, n); }),
                   Capture<std::int64_t>([&] { return Oracle::PartitionFor(key, n); }));
  }

  // Every end offset, committed offset and assignment; with `drain`, also every
  // consumer's remaining records (positions), and the records of earlier polls.
  std::string CompareState(bool drain) {
    Log(drain ? "<compare whole state and drain>" : "<compare state>");
    for (int p = 0; p < oracle_->num_partitions(); ++p) {
      std::string mismatch = EndOffset(p);
      for (const std::string& group : groups_) {
        if (mismatch.empty()) mismatch = Committed(group, p);
      }
      if (!mismatch.empty()) return mismatch;
    }
    for (const std::string& group : groups_) {
      for (const std::string& consumer : consumers_) {
        std::string mismatch = Assignment(group, consumer);
        if (!mismatch.empty()) return mismatch;
      }
    }
    if (!drain) return "";
    for (const std::string& group : groups_) {
      for (const std::string& consumer : consumers_) {
        Log("poll(" + Quote(group) + ", " + Quote(consumer) + ", 1000000)");
        const std::string mismatch = Compare(Capture<std::vector<OracleRecord>>([&] {
                                               return Own(topic_->poll(group, consumer, 1'000'000));
                                             }),
                                             Capture<std::vector<OracleRecord>>([&] {
                                               return oracle_->Poll(group, consumer, 1'000'000);
                                             }));
        if (!mismatch.empty()) return mismatch;
      }
    }
    Log("<records of earlier polls still read the same>");
    return Compare(Outcome<std::vector<OracleRecord>>{"", Own(kept_views_)},
                   Outcome<std::vector<OracleRecord>>{"", kept_copies_});
  }

  void Log(std::string line) { log_.push_back(std::move(line)); }

  // "" if the Topic did what the oracle did, else the operations and both outcomes.
  template <typename T>
  std::string Compare(const Outcome<T>& actual, const Outcome<T>& expected) {
    if (actual == expected) return "";
    std::string text = "operations:\n";
    for (const std::string& line : log_) text += "  " + line + "\n";
    return text + "last call: Topic gave   " + Describe(actual) + "\n           oracle gave  " +
           Describe(expected);
  }

  std::mt19937_64 rng_;
  Mix mix_;
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

// Runs the sequences; stops at the first mismatch and reports its seed.
void RunSequences(std::uint64_t default_seed, std::uint64_t default_count, int steps,
                  const Mix& mix) {
  const std::uint64_t base_seed = EnvOr("KGROUPS_MODEL_SEED", default_seed);
  const std::uint64_t count = EnvOr("KGROUPS_MODEL_SEQUENCES", default_count);
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t seed = base_seed + i;
    const std::string mismatch = Sequence(seed, mix).Run(steps);
    if (!mismatch.empty()) {
      ADD_FAILURE() << "sequence seed " << seed << " (rerun: KGROUPS_MODEL_SEED=" << seed
                    << " KGROUPS_MODEL_SEQUENCES=1)\n"
                    << mismatch;
      return;
    }
  }
}

TEST(TopicModel, OracleFollowsTheSpecExamples) {
  EXPECT_EQ(Oracle::PartitionFor("", 1000000007), static_cast<int>(2166136261U % 1000000007U));
  EXPECT_EQ(Oracle::PartitionFor("a", 1000000007), static_cast<int>(3826002220U % 1000000007U));
  EXPECT_EQ(Oracle::PartitionFor("foobar", 1000000007),
            static_cast<int>(3214735720U % 1000000007U));
  Oracle six(6);
  for (const char* id : {"C", "A", "B"}) six.Join("billing", id);
  EXPECT_EQ(six.Assignment("billing", "A"), (std::vector<int>{0, 1}));
  EXPECT_EQ(six.Assignment("billing", "C"), (std::vector<int>{4, 5}));
  six.Leave("billing", "B");
  EXPECT_EQ(six.Assignment("billing", "A"), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(six.Assignment("billing", "C"), (std::vector<int>{3, 4, 5}));
  EXPECT_THROW(six.Commit("billing", "C", {{2, 0}}), kgroups::NotAssignedError);
  Oracle seven(7);
  for (const char* id : {"A", "B", "C"}) seven.Join("g", id);
  EXPECT_EQ(seven.Assignment("g", "A"), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(seven.Assignment("g", "B"), (std::vector<int>{3, 4}));
  Oracle two(2);
  for (const char* id : {"A", "B", "C"}) two.Join("g", id);
  EXPECT_EQ(two.Assignment("g", "C"), (std::vector<int>{}));
  EXPECT_THROW((void)two.Committed("unknown", 99), std::out_of_range);
  EXPECT_THROW((void)two.Poll("g", "C", -1), std::invalid_argument);
}

TEST(TopicModel, RandomSequencesMatchTheOracle) { RunSequences(20261130, 600, 120, Mix{}); }

TEST(TopicModel, MembershipHeavySequencesMatchTheOracle) {
  Mix mix;
  mix.append = 15;
  mix.join = 15;
  mix.leave = 12;
  mix.poll = 15;
  mix.commit = 10;
  mix.commit_offsets = 15;
  RunSequences(77000000, 400, 120, mix);
}

TEST(TopicModel, LongSequencesMatchTheOracle) { RunSequences(91000000, 10, 2000, Mix{}); }

}  // namespace
