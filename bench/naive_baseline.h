// SPDX-License-Identifier: Apache-2.0
//
// NaiveTopic: the straightforward implementation of SPEC.md that the
// benchmarks measure kgroups against: records as
// std::vector<std::pair<std::string, std::string>> per partition, std::map
// group state, one mutex around everything, records copied out on poll.
// Correct but unoptimized; used only by bench/.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kgroups/partitioner.h"

namespace kgroups::bench {

struct NaiveRecord {
  int partition;
  std::int64_t offset;
  std::string key;
  std::string value;
};

class NaiveTopic {
 public:
  explicit NaiveTopic(int num_partitions) : logs_(static_cast<std::size_t>(num_partitions)) {}

  std::pair<int, std::int64_t> append(std::string_view key, std::string_view value) {
    const std::lock_guard lock(mutex_);
    const int partition = partition_for(key, static_cast<int>(logs_.size()));
    auto& log = logs_[static_cast<std::size_t>(partition)];
    log.emplace_back(std::string(key), std::string(value));
    return {partition, static_cast<std::int64_t>(log.size()) - 1};
  }

  void join(const std::string& group, const std::string& consumer) {
    const std::lock_guard lock(mutex_);
    Group& state = groups_[group];
    if (state.positions.contains(consumer)) return;
    state.positions[consumer];
    rebalance(state);
  }

  void leave(const std::string& group, const std::string& consumer) {
    const std::lock_guard lock(mutex_);
    auto found = groups_.find(group);
    if (found == groups_.end() || found->second.positions.erase(consumer) == 0) return;
    rebalance(found->second);
  }

  std::vector<NaiveRecord> poll(const std::string& group, const std::string& consumer,
                                int max_records) {
    const std::lock_guard lock(mutex_);
    std::vector<NaiveRecord> records;
    auto found = groups_.find(group);
    if (found == groups_.end()) return records;
    auto member = found->second.positions.find(consumer);
    if (member == found->second.positions.end()) return records;
    for (auto& [partition, position] : member->second) {
      const auto& log = logs_[static_cast<std::size_t>(partition)];
      while (position < static_cast<std::int64_t>(log.size()) &&
             static_cast<int>(records.size()) < max_records) {
        const auto& [key, value] = log[static_cast<std::size_t>(position)];
        records.push_back({partition, position, key, value});
        ++position;
      }
    }
    return records;
  }

  void commit(const std::string& group, const std::string& consumer) {
    const std::lock_guard lock(mutex_);
    auto found = groups_.find(group);
    if (found == groups_.end()) return;
    auto member = found->second.positions.find(consumer);
    if (member == found->second.positions.end()) return;
    for (const auto& [partition, position] : member->second) {
      found->second.committed[partition] = position;
    }
  }

 private:
  struct Group {
    std::map<std::string, std::map<int, std::int64_t>>
        positions;  // member -> partition -> position
    std::map<int, std::int64_t> committed;
  };

  void rebalance(Group& group) {
    const int partitions = static_cast<int>(logs_.size());
    const int members = static_cast<int>(group.positions.size());
    int next = 0;
    int index = 0;
    for (auto& [member, positions] : group.positions) {
      positions.clear();
      const int count = partitions / members + (index < partitions % members ? 1 : 0);
      for (int i = 0; i < count; ++i, ++next) {
        auto committed = group.committed.find(next);
        positions[next] = committed == group.committed.end() ? 0 : committed->second;
      }
      ++index;
    }
  }

  std::mutex mutex_;
  std::vector<std::vector<std::pair<std::string, std::string>>> logs_;
  std::map<std::string, Group> groups_;
};

}  // namespace kgroups::bench
