// SPDX-License-Identifier: Apache-2.0
//
// Oracle: SPEC.md's Topic written as plainly as possible, to check the real
// Topic against in the randomized model test. Nothing is cached: the
// assignment is recomputed from the sorted members on every call, and each
// rule is one short, literal block. Speed does not matter here.
// Not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "kgroups/errors.h"
#include "kgroups/record.h"

namespace kgroups_model {

struct OracleRecord {
  int partition = 0;
  std::int64_t offset = 0;
  std::string key;
  std::string value;
  kgroups::Encoding key_encoding = kgroups::Encoding::kBytes;
  kgroups::Encoding value_encoding = kgroups::Encoding::kBytes;

  friend bool operator==(const OracleRecord&, const OracleRecord&) = default;
};

class Oracle {
 public:
  explicit Oracle(int num_partitions) {
    if (num_partitions < 1) throw std::invalid_argument("oracle: num_partitions < 1");
    logs_.resize(num_partitions);
  }

  int num_partitions() const { return static_cast<int>(logs_.size()); }

  // SPEC.md, "Partitioning": FNV-1a, then modulo.
  static int partition_for(const std::string& key, int num_partitions) {
    if (num_partitions < 1) throw std::invalid_argument("oracle: num_partitions < 1");
    std::uint64_t hash = 2166136261U;
    for (const char byte : key) {
      hash ^= static_cast<unsigned char>(byte);
      hash = (hash * 16777619U) % 4294967296U;
    }
    return static_cast<int>(hash % static_cast<std::uint64_t>(num_partitions));
  }

  std::pair<int, std::int64_t> append(const std::string& key, const std::string& value,
                                      kgroups::Encoding key_encoding,
                                      kgroups::Encoding value_encoding) {
    const int partition = partition_for(key, num_partitions());
    const auto offset = static_cast<std::int64_t>(logs_[partition].size());
    logs_[partition].push_back({partition, offset, key, value, key_encoding, value_encoding});
    return {partition, offset};
  }

  std::int64_t end_offset(int partition) const {
    check_partition(partition);
    return static_cast<std::int64_t>(logs_[partition].size());
  }

  void join(const std::string& group, const std::string& consumer) {
    Group& state = groups_[group];
    if (state.members.count(consumer) == 1) return;
    state.members.insert(consumer);
    rebalance(state);
  }

  void leave(const std::string& group, const std::string& consumer) {
    auto found = groups_.find(group);
    if (found == groups_.end() || found->second.members.count(consumer) == 0) return;
    found->second.members.erase(consumer);
    rebalance(found->second);
  }

  std::vector<int> assignment(const std::string& group, const std::string& consumer) const {
    auto found = groups_.find(group);
    if (found == groups_.end()) return {};
    return range_of(found->second.members, num_partitions(), consumer);
  }

  std::vector<OracleRecord> poll(const std::string& group, const std::string& consumer,
                                 int max_records) {
    if (max_records < 0) throw std::invalid_argument("oracle: max_records < 0");
    std::vector<OracleRecord> result;
    for (int partition : assignment(group, consumer)) {
      std::int64_t& position = groups_.at(group).positions[consumer][partition];
      while (static_cast<int>(result.size()) < max_records && position < end_offset(partition)) {
        result.push_back(logs_[partition][position]);
        ++position;
      }
    }
    return result;
  }

  void commit(const std::string& group, const std::string& consumer) {
    for (int partition : assignment(group, consumer)) {
      Group& state = groups_.at(group);
      state.committed[partition] = state.positions[consumer][partition];
    }
  }

  void commit(const std::string& group, const std::string& consumer,
              const std::map<int, std::int64_t>& offsets) {
    const std::vector<int> assigned = assignment(group, consumer);
    for (const auto& [partition, offset] : offsets) {
      bool is_assigned = false;
      for (int mine : assigned) is_assigned = is_assigned || mine == partition;
      if (!is_assigned) throw kgroups::NotAssignedError("oracle: not assigned", partition);
    }
    for (const auto& [partition, offset] : offsets) {
      if (offset < 0 || offset > end_offset(partition)) {
        throw std::invalid_argument("oracle: offset out of range");
      }
    }
    for (const auto& [partition, offset] : offsets) groups_.at(group).committed[partition] = offset;
  }

  std::int64_t committed(const std::string& group, int partition) const {
    check_partition(partition);
    auto found = groups_.find(group);
    if (found == groups_.end()) return 0;
    auto committed = found->second.committed.find(partition);
    return committed == found->second.committed.end() ? 0 : committed->second;
  }

 private:
  struct Group {
    std::set<std::string> members;
    std::map<std::string, std::map<int, std::int64_t>> positions;  // consumer -> partition -> next
    std::map<int, std::int64_t> committed;  // partition -> next offset to read
  };

  void check_partition(int partition) const {
    if (partition < 0 || partition >= num_partitions()) {
      throw std::out_of_range("oracle: partition out of range");
    }
  }

  // SPEC.md, "Rebalance", step 3: every member restarts every partition it now
  // owns from the group's committed offset (0 if none).
  void rebalance(Group& state) {
    state.positions.clear();
    for (const std::string& member : state.members) {
      for (int partition : range_of(state.members, num_partitions(), member)) {
        auto committed = state.committed.find(partition);
        state.positions[member][partition] =
            committed == state.committed.end() ? 0 : committed->second;
      }
    }
  }

  // SPEC.md, "Rebalance", steps 1 and 2: members sorted by id (std::set of
  // std::string orders by char_traits<char>, which compares bytes as unsigned
  // char), n / m consecutive partitions each, one extra for the first n % m.
  static std::vector<int> range_of(const std::set<std::string>& members, int n,
                                   const std::string& consumer) {
    const int m = static_cast<int>(members.size());
    int next = 0;
    int index = 0;
    for (const std::string& member : members) {
      const int count = n / m + (index < n % m ? 1 : 0);
      if (member == consumer) {
        std::vector<int> partitions;
        for (int k = 0; k < count; ++k) partitions.push_back(next + k);
        return partitions;
      }
      next += count;
      ++index;
    }
    return {};
  }

  std::vector<std::vector<OracleRecord>> logs_;  // partition -> records by offset
  std::map<std::string, Group> groups_;          // created by the first join
};

}  // namespace kgroups_model
