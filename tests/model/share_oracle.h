// SPDX-License-Identifier: Apache-2.0
//
// ShareOracle: SPEC.md's share-group rules (SG1..SG15) written as plainly as
// possible, for the randomized differential test of Topic's share groups: maps
// of records by offset, members by id, one loop per rule, none of the engine's
// units (no SharePartition, no share assignor). It also tracks the log's end
// offsets and values, and the consumer groups' names (SG1). Errors are thrown
// as the Topic throws them, before anything changes.
// Not thread-safe.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kgroups/kgroups.h"

namespace kgroups_model {

class ShareOracle {
 public:
  enum class State { kAvailable, kAcquired, kAcknowledged, kArchived };

  struct InFlight {
    State state = State::kAvailable;
    std::string member;  // the holder while acquired
    std::int64_t deadline_ms = 0;
    int delivery_count = 0;
  };

  struct Delivered {
    int partition = 0;
    std::int64_t offset = 0;
    std::string value;
    int delivery_count = 0;
    friend bool operator==(const Delivered&, const Delivered&) = default;
  };

  ShareOracle(int num_partitions, const kgroups::TopicOptions& options)
      : options_(options), values_(static_cast<std::size_t>(num_partitions)) {}

  [[nodiscard]] int num_partitions() const { return static_cast<int>(values_.size()); }

  void append(int partition, const std::string& value) {
    values_[static_cast<std::size_t>(partition)].push_back(value);
  }
  [[nodiscard]] std::int64_t end_offset(int partition) const {
    return static_cast<std::int64_t>(values_[static_cast<std::size_t>(partition)].size());
  }

  // A consumer group's join, for SG1 only.
  void join(const std::string& group) {
    if (groups_.count(group) != 0) throw std::invalid_argument("a share group's name");
    consumer_groups_.insert(group);
  }

  void share_join(const std::string& group, const std::string& member) {
    if (consumer_groups_.count(group) != 0) throw std::invalid_argument("a consumer group's name");
    Group& entry = groups_[group];
    if (entry.members.count(member) != 0) return;
    entry.members[member];
    reassign(entry);
  }

  void share_leave(const std::string& group, const std::string& member) {
    const auto found = groups_.find(group);
    if (found == groups_.end() || found->second.members.count(member) == 0) return;
    Group& entry = found->second;
    for (auto& [partition, share] : entry.shares) {
      for (auto& [offset, record] : share.records) {
        if (record.state == State::kAcquired && record.member == member) release(record);
      }
      advance_start(share);
    }
    entry.members.erase(member);
    reassign(entry);
  }

  [[nodiscard]] std::vector<int> share_assignment(const std::string& group,
                                                  const std::string& member) const {
    const auto found = groups_.find(group);
    if (found == groups_.end()) return {};
    const auto held = found->second.members.find(member);
    return held == found->second.members.end() ? std::vector<int>{} : held->second;
  }

  std::vector<Delivered> share_poll(const std::string& group, const std::string& member,
                                    int max_records) {
    if (max_records < 0) throw std::invalid_argument("max_records");
    const auto found = groups_.find(group);
    if (found == groups_.end() || found->second.members.count(member) == 0) {
      throw std::invalid_argument("not a member");
    }
    Group& entry = found->second;
    std::vector<Delivered> out;
    int remaining = max_records;
    for (const int partition : entry.members[member]) {
      Share& share = entry.shares.at(partition);
      const std::int64_t log_end = end_offset(partition);
      // The available records first, oldest first.
      for (auto& [offset, record] : share.records) {
        if (remaining == 0) break;
        if (record.state != State::kAvailable || offset >= log_end) continue;
        take(share, partition, offset, record, member, out);
        --remaining;
      }
      // Then new records, while fewer than partition_max_record_locks are in flight.
      while (remaining > 0 && share.end < log_end &&
             share.end - share.start < options_.partition_max_record_locks) {
        const std::int64_t offset = share.end++;
        take(share, partition, offset, share.records[offset], member, out);
        --remaining;
      }
    }
    return out;
  }

  void acknowledge(const std::string& group, const std::string& member,
                   const std::vector<std::pair<int, std::int64_t>>& records,
                   kgroups::AcknowledgeType type) {
    if (type == kgroups::AcknowledgeType::kGap) throw std::invalid_argument("gap");
    if (records.empty()) return;
    for (const auto& [partition, offset] : records) {
      const InFlight* record = find(group, partition, offset);
      if (record == nullptr || record->state != State::kAcquired || record->member != member) {
        throw kgroups::NotAcquiredError("not held", partition, offset);
      }
    }
    Group& entry = groups_.at(group);
    for (const auto& [partition, offset] : records) {
      Share& share = entry.shares.at(partition);
      const auto record = share.records.find(offset);
      // A record named twice: the second mention finds it no longer held (or gone below the
      // start offset), and skips it.
      if (record == share.records.end() || record->second.state != State::kAcquired ||
          record->second.member != member) {
        continue;
      }
      settle(record->second, type);
      advance_start(share);
    }
  }

  void acknowledge_all(const std::string& group, const std::string& member,
                       kgroups::AcknowledgeType type) {
    if (type == kgroups::AcknowledgeType::kGap) throw std::invalid_argument("gap");
    const auto found = groups_.find(group);
    if (found == groups_.end()) return;
    for (auto& [partition, share] : found->second.shares) {
      for (auto& [offset, record] : share.records) {
        if (record.state == State::kAcquired && record.member == member) settle(record, type);
      }
      advance_start(share);
    }
  }

  void advance_clock(std::int64_t milliseconds) {
    if (milliseconds < 0) throw std::invalid_argument("milliseconds");
    clock_ms_ += milliseconds;
    for (auto& [name, entry] : groups_) {
      for (auto& [partition, share] : entry.shares) {
        for (auto& [offset, record] : share.records) {
          if (record.state == State::kAcquired && record.deadline_ms <= clock_ms_) release(record);
        }
        advance_start(share);
      }
    }
  }
  [[nodiscard]] std::int64_t clock() const { return clock_ms_; }

  [[nodiscard]] kgroups::Topic::SharePartitionState share_partition_state(const std::string& group,
                                                                          int partition) const {
    if (partition < 0 || partition >= num_partitions()) throw std::out_of_range("partition");
    kgroups::Topic::SharePartitionState state;
    const auto found = groups_.find(group);
    if (found == groups_.end() || found->second.shares.count(partition) == 0) {
      state.start_offset = reset_offset(partition);
      state.end_offset = state.start_offset;
      return state;
    }
    const Share& share = found->second.shares.at(partition);
    state.start_offset = share.start;
    state.end_offset = share.end;
    for (const auto& [offset, record] : share.records) {
      switch (record.state) {
        case State::kAvailable:
          ++state.available;
          break;
        case State::kAcquired:
          ++state.acquired;
          break;
        case State::kAcknowledged:
          ++state.acknowledged;
          break;
        case State::kArchived:
          ++state.archived;
          break;
      }
    }
    state.deliveries = share.deliveries;
    state.redeliveries = share.redeliveries;
    return state;
  }

  // The records `member` holds now, by partition and offset.
  [[nodiscard]] std::vector<std::pair<int, std::int64_t>> held(const std::string& group,
                                                               const std::string& member) const {
    std::vector<std::pair<int, std::int64_t>> records;
    const auto found = groups_.find(group);
    if (found == groups_.end()) return records;
    for (const auto& [partition, share] : found->second.shares) {
      for (const auto& [offset, record] : share.records) {
        if (record.state == State::kAcquired && record.member == member) {
          records.emplace_back(partition, offset);
        }
      }
    }
    return records;
  }

  // Java's String.hashCode of an ASCII id.
  static std::int32_t java_hash(const std::string& id) {
    std::uint32_t hash = 0;
    for (const char c : id) hash = hash * 31U + static_cast<unsigned char>(c);
    return static_cast<std::int32_t>(hash);
  }

 private:
  struct Share {
    std::int64_t start = 0;
    std::int64_t end = 0;                      // the first offset never acquired
    std::map<std::int64_t, InFlight> records;  // every offset in start..end-1
    std::int64_t deliveries = 0;
    std::int64_t redeliveries = 0;
  };
  struct Group {
    std::map<std::string, std::vector<int>> members;  // id -> partitions, ascending
    std::map<int, Share> shares;                      // created on first assignment
  };

  [[nodiscard]] std::int64_t reset_offset(int partition) const {
    return options_.share_auto_offset_reset == "latest" ? end_offset(partition) : 0;
  }

  // SG2: hash, then unheld partitions round robin, then keep what is held.
  void reassign(Group& entry) {
    const int n = num_partitions();
    std::map<std::string, std::vector<int>> next;
    std::set<int> hashed;
    for (const auto& [id, partitions] : entry.members) {
      const int p = std::abs(java_hash(id) % n);
      next[id].push_back(p);
      hashed.insert(p);
    }
    std::set<int> held;
    for (const auto& [id, partitions] : entry.members)
      held.insert(partitions.begin(), partitions.end());
    auto turn = next.begin();
    for (int p = 0; p < n && !next.empty(); ++p) {
      if (hashed.count(p) != 0 || held.count(p) != 0) continue;
      turn->second.push_back(p);
      if (++turn == next.end()) turn = next.begin();
    }
    for (auto& [id, partitions] : next) {
      const std::vector<int>& mine = entry.members[id];
      partitions.insert(partitions.end(), mine.begin(), mine.end());
      std::sort(partitions.begin(), partitions.end());
      partitions.erase(std::unique(partitions.begin(), partitions.end()), partitions.end());
      for (const int p : partitions) {
        if (entry.shares.count(p) == 0) {
          Share& share = entry.shares[p];
          share.start = reset_offset(p);
          share.end = share.start;
        }
      }
    }
    entry.members = std::move(next);
  }

  void take(Share& share, int partition, std::int64_t offset, InFlight& record,
            const std::string& member, std::vector<Delivered>& out) {
    if (record.delivery_count > 0) ++share.redeliveries;
    ++share.deliveries;
    ++record.delivery_count;
    record.state = State::kAcquired;
    record.member = member;
    record.deadline_ms = clock_ms_ + options_.record_lock_duration_ms;
    out.push_back({partition, offset,
                   values_[static_cast<std::size_t>(partition)][static_cast<std::size_t>(offset)],
                   record.delivery_count});
  }

  // SG6 and SG11.
  void release(InFlight& record) const {
    record.member.clear();
    record.state = record.delivery_count >= options_.delivery_count_limit ? State::kArchived
                                                                          : State::kAvailable;
  }

  void settle(InFlight& record, kgroups::AcknowledgeType type) const {
    switch (type) {
      case kgroups::AcknowledgeType::kAccept:
        record.state = State::kAcknowledged;
        record.member.clear();
        break;
      case kgroups::AcknowledgeType::kRelease:
        release(record);
        break;
      default:
        record.state = State::kArchived;
        record.member.clear();
        break;
    }
  }

  // SG12.
  static void advance_start(Share& share) {
    while (!share.records.empty() && share.records.begin()->first == share.start &&
           (share.records.begin()->second.state == State::kAcknowledged ||
            share.records.begin()->second.state == State::kArchived)) {
      share.records.erase(share.records.begin());
      ++share.start;
    }
  }

  [[nodiscard]] const InFlight* find(const std::string& group, int partition,
                                     std::int64_t offset) const {
    const auto found = groups_.find(group);
    if (found == groups_.end()) return nullptr;
    const auto share = found->second.shares.find(partition);
    if (share == found->second.shares.end()) return nullptr;
    const auto record = share->second.records.find(offset);
    return record == share->second.records.end() ? nullptr : &record->second;
  }

  kgroups::TopicOptions options_;
  std::vector<std::vector<std::string>> values_;  // values_[p][offset]
  std::set<std::string> consumer_groups_;
  std::map<std::string, Group> groups_;
  std::int64_t clock_ms_ = 0;
};

}  // namespace kgroups_model
