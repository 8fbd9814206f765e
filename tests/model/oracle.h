// SPDX-License-Identifier: Apache-2.0
//
// Oracle: SPEC.md's Topic written as plainly as possible, to check the real
// Topic against in the randomized model test, with the options of SPEC.md's
// "Options" section (partitioners, assignors, auto_offset_reset, lag and the
// rebalance history) written out again here, not taken from the library. Each
// rule is one short, literal block; every rebalance computes the assignment
// afresh from the sorted members (and, for the sticky assignors, the previous
// assignment). Speed does not matter here.
// Not thread-safe.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kgroups/errors.h"
#include "kgroups/rebalance.h"
#include "kgroups/record.h"
#include "kgroups/topic_options.h"

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
  // SPEC.md, "Options": num_partitions first, then the options in the table's order.
  explicit Oracle(int num_partitions, kgroups::TopicOptions options = {})
      : options_(std::move(options)) {
    if (num_partitions < 1) throw std::invalid_argument("oracle: num_partitions < 1");
    if (!one_of(options_.partitioner, {"fnv1a", "murmur2"})) {
      throw std::invalid_argument("oracle: unknown partitioner");
    }
    if (!one_of(options_.assignor, {"range", "roundrobin", "sticky", "cooperative-sticky"})) {
      throw std::invalid_argument("oracle: unknown assignor");
    }
    if (!one_of(options_.auto_offset_reset, {"earliest", "latest", "none"})) {
      throw std::invalid_argument("oracle: unknown auto_offset_reset");
    }
    logs_.resize(num_partitions);
  }

  int num_partitions() const { return static_cast<int>(logs_.size()); }

  static constexpr std::size_t kHistory = 1000;  // SPEC.md: the most recent 1,000 rebalances

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

  // Kafka's Utils.murmur2, line by line as the Java code reads, with Java's
  // int arithmetic done in int64 and cut to 32 bits after every step.
  static std::int32_t murmur2(const std::string& data) {
    const std::int64_t m = 0x5bd1e995;
    const auto to_int = [](std::int64_t value) {
      return static_cast<std::int64_t>(static_cast<std::int32_t>(
          static_cast<std::uint32_t>(static_cast<std::uint64_t>(value) & 0xffffffffU)));
    };
    const auto unsigned_shift = [](std::int64_t value, int bits) {  // Java's >>>
      return static_cast<std::int64_t>((static_cast<std::uint64_t>(value) & 0xffffffffU) >> bits);
    };
    const auto byte_at = [&data](std::size_t i) {
      return static_cast<std::int64_t>(static_cast<unsigned char>(data[i]));
    };
    const auto length = static_cast<std::int64_t>(data.size());
    std::int64_t h = to_int(0x9747b28c ^ length);
    for (std::size_t i = 0; i < data.size() / 4; ++i) {
      const std::size_t i4 = i * 4;
      std::int64_t k = to_int(byte_at(i4) + (byte_at(i4 + 1) << 8) + (byte_at(i4 + 2) << 16) +
                              (byte_at(i4 + 3) << 24));
      k = to_int(k * m);
      k = to_int(k ^ unsigned_shift(k, 24));
      k = to_int(k * m);
      h = to_int(h * m);
      h = to_int(h ^ k);
    }
    const std::size_t rest = data.size() & ~std::size_t{3};
    if (data.size() % 4 == 3) h = to_int(h ^ (byte_at(rest + 2) << 16));
    if (data.size() % 4 >= 2) h = to_int(h ^ (byte_at(rest + 1) << 8));
    if (data.size() % 4 >= 1) h = to_int((h ^ byte_at(rest)) * m);
    h = to_int(h ^ unsigned_shift(h, 13));
    h = to_int(h * m);
    h = to_int(h ^ unsigned_shift(h, 15));
    return static_cast<std::int32_t>(h);
  }

  // SPEC.md, "Options": either partitioner by name.
  static int partition_for(const std::string& key, int num_partitions,
                           const std::string& partitioner) {
    if (num_partitions < 1) throw std::invalid_argument("oracle: num_partitions < 1");
    if (partitioner == "fnv1a") return partition_for(key, num_partitions);
    if (partitioner != "murmur2") throw std::invalid_argument("oracle: unknown partitioner");
    const std::int64_t positive = static_cast<std::int64_t>(murmur2(key)) & 0x7fffffff;
    return static_cast<int>(positive % num_partitions);
  }

  std::pair<int, std::int64_t> append(const std::string& key, const std::string& value,
                                      kgroups::Encoding key_encoding,
                                      kgroups::Encoding value_encoding) {
    const int partition = partition_for(key, num_partitions(), options_.partitioner);
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
    rebalance(state, "join", consumer);
  }

  void leave(const std::string& group, const std::string& consumer) {
    auto found = groups_.find(group);
    if (found == groups_.end() || found->second.members.count(consumer) == 0) return;
    found->second.members.erase(consumer);
    rebalance(found->second, "leave", consumer);
  }

  std::vector<int> assignment(const std::string& group, const std::string& consumer) const {
    auto found = groups_.find(group);
    if (found == groups_.end()) return {};
    auto member = found->second.assignment.find(consumer);
    return member == found->second.assignment.end() ? std::vector<int>{} : member->second;
  }

  // SPEC.md, "Poll", and "auto_offset_reset" "none": a partition without a
  // position takes the committed offset if there is one now; if some still
  // have none, NoOffsetError naming them, and nothing changes.
  std::vector<OracleRecord> poll(const std::string& group, const std::string& consumer,
                                 int max_records) {
    if (max_records < 0) throw std::invalid_argument("oracle: max_records < 0");
    if (max_records == 0) return {};
    const std::vector<int> partitions = assignment(group, consumer);
    if (partitions.empty()) return {};
    Group& state = groups_.at(group);
    std::map<int, std::int64_t> positions = state.positions[consumer];
    std::vector<int> without_offset;
    for (int partition : partitions) {
      if (positions.count(partition) == 1) continue;
      auto committed = state.committed.find(partition);
      if (committed == state.committed.end()) {
        without_offset.push_back(partition);
      } else {
        positions[partition] = committed->second;
      }
    }
    if (!without_offset.empty()) {
      throw kgroups::NoOffsetError("oracle: no offset", without_offset);
    }
    std::vector<OracleRecord> result;
    for (int partition : partitions) {
      std::int64_t& position = positions.at(partition);
      while (static_cast<int>(result.size()) < max_records && position < end_offset(partition)) {
        result.push_back(logs_[partition][position]);
        ++position;
      }
    }
    state.positions[consumer] = positions;
    return result;
  }

  // A partition without a position is skipped.
  void commit(const std::string& group, const std::string& consumer) {
    for (int partition : assignment(group, consumer)) {
      Group& state = groups_.at(group);
      auto position = state.positions[consumer].find(partition);
      if (position != state.positions[consumer].end()) {
        state.committed[partition] = position->second;
      }
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

  // SPEC.md, "lag(group)": end offset minus committed offset, every partition.
  std::map<int, std::int64_t> lag(const std::string& group) const {
    std::map<int, std::int64_t> lags;
    for (int partition = 0; partition < num_partitions(); ++partition) {
      lags[partition] = end_offset(partition) - committed(group, partition);
    }
    return lags;
  }

  std::vector<kgroups::Rebalance> rebalances(const std::string& group) const {
    auto found = groups_.find(group);
    if (found == groups_.end()) return {};
    return {found->second.history.begin(), found->second.history.end()};
  }

 private:
  using Assignment = std::map<std::string, std::vector<int>>;  // member -> partitions, ascending

  struct Group {
    std::set<std::string> members;
    Assignment assignment;  // of the current generation, every member listed
    // consumer -> partition -> next offset; a partition missing has no position
    std::map<std::string, std::map<int, std::int64_t>> positions;
    std::map<int, std::int64_t> committed;  // partition -> next offset to read
    std::int64_t generation = 0;
    std::deque<kgroups::Rebalance> history;  // the latest kHistory rebalances
  };

  static bool one_of(const std::string& value, const std::vector<std::string>& choices) {
    return std::find(choices.begin(), choices.end(), value) != choices.end();
  }

  static bool contains(const std::vector<int>& partitions, int partition) {
    return std::find(partitions.begin(), partitions.end(), partition) != partitions.end();
  }

  // The elements of `from` that are not in `without`, in order.
  static std::vector<int> minus(const std::vector<int>& from, const std::vector<int>& without) {
    std::vector<int> result;
    for (int partition : from) {
      if (!contains(without, partition)) result.push_back(partition);
    }
    return result;
  }

  void check_partition(int partition) const {
    if (partition < 0 || partition >= num_partitions()) {
      throw std::out_of_range("oracle: partition out of range");
    }
  }

  bool cooperative() const { return options_.assignor == "cooperative-sticky"; }

  // SPEC.md, "Rebalance", step 3, and "Options": eagerly every member restarts
  // every partition it now owns from the group's committed offset;
  // cooperatively only partitions new to it restart, and it keeps its position
  // (or its lack of one) on the others. Without a committed offset the start
  // is auto_offset_reset's: 0, the end offset now, or no position.
  void rebalance(Group& state, const std::string& cause, const std::string& consumer) {
    const Assignment previous = state.assignment;
    state.assignment = assign(state.members, previous);
    std::map<std::string, std::map<int, std::int64_t>> positions;
    for (const auto& [member, partitions] : state.assignment) {
      auto before = previous.find(member);
      for (int partition : partitions) {
        const bool kept = before != previous.end() && contains(before->second, partition);
        if (cooperative() && kept) {
          auto position = state.positions[member].find(partition);
          if (position != state.positions[member].end()) {
            positions[member][partition] = position->second;
          }
          continue;
        }
        auto committed = state.committed.find(partition);
        if (committed != state.committed.end()) {
          positions[member][partition] = committed->second;
        } else if (options_.auto_offset_reset == "earliest") {
          positions[member][partition] = 0;
        } else if (options_.auto_offset_reset == "latest") {
          positions[member][partition] = end_offset(partition);
        }
      }
    }
    state.positions = positions;
    record(state, previous, cause, consumer);
  }

  // SPEC.md, "rebalances(group)": eagerly a member revokes all it owned and is
  // assigned all it owns; cooperatively only what moved.
  void record(Group& state, const Assignment& previous, const std::string& cause,
              const std::string& consumer) {
    kgroups::Rebalance rebalance;
    rebalance.generation = ++state.generation;
    rebalance.cause = cause;
    rebalance.consumer = consumer;
    for (const auto& [member, partitions] : state.assignment) {
      auto before = previous.find(member);
      const std::vector<int> owned = before == previous.end() ? std::vector<int>{} : before->second;
      kgroups::MemberRebalance entry{member, partitions, owned, partitions};
      if (cooperative()) {
        entry.revoked = minus(owned, partitions);
        entry.assigned = minus(partitions, owned);
      }
      rebalance.members.push_back(entry);
    }
    state.history.push_back(rebalance);
    if (state.history.size() > kHistory) state.history.pop_front();
  }

  Assignment assign(const std::set<std::string>& members, const Assignment& previous) const {
    Assignment assignment;
    if (options_.assignor == "range") {
      for (const std::string& member : members) {
        assignment[member] = range_of(members, num_partitions(), member);
      }
    } else if (options_.assignor == "roundrobin") {
      assignment = roundrobin(members, num_partitions());
    } else {
      assignment = sticky(members, num_partitions(), previous);
    }
    return assignment;
  }

  // SPEC.md, "Options", "roundrobin": partition p to the (p mod m)-th member.
  static Assignment roundrobin(const std::set<std::string>& members, int n) {
    Assignment assignment;
    const std::vector<std::string> sorted(members.begin(), members.end());
    for (const std::string& member : sorted) assignment[member];
    if (sorted.empty()) return assignment;
    for (int partition = 0; partition < n; ++partition) {
      assignment[sorted[partition % sorted.size()]].push_back(partition);
    }
    return assignment;
  }

  // SPEC.md, "Options", sticky, "Exactly": n mod m members get n / m + 1, the
  // others n / m; the larger shares to those that owned most before (ties: the
  // smaller id); each keeps its lowest previous partitions up to its share;
  // the rest dealt ascending to members below their share, in id order, each
  // filled up before the next.
  static Assignment sticky(const std::set<std::string>& members, int n,
                           const Assignment& previous) {
    Assignment assignment;
    const int m = static_cast<int>(members.size());
    if (m == 0) return assignment;
    const auto owned_before = [&previous](const std::string& member) {
      auto found = previous.find(member);
      return found == previous.end() ? std::vector<int>{} : found->second;
    };
    std::vector<std::string> by_ownership(members.begin(), members.end());  // id order
    std::stable_sort(by_ownership.begin(), by_ownership.end(),
                     [&](const std::string& a, const std::string& b) {
                       return owned_before(a).size() > owned_before(b).size();
                     });
    std::map<std::string, int> share;
    for (int rank = 0; rank < m; ++rank) {
      share[by_ownership[rank]] = n / m + (rank < n % m ? 1 : 0);
    }
    std::set<int> taken;
    for (const std::string& member : members) {
      std::vector<int> before = owned_before(member);
      std::sort(before.begin(), before.end());
      for (int partition : before) {
        if (static_cast<int>(assignment[member].size()) == share[member]) break;
        assignment[member].push_back(partition);
        taken.insert(partition);
      }
    }
    std::vector<int> left_over;
    for (int partition = 0; partition < n; ++partition) {
      if (taken.count(partition) == 0) left_over.push_back(partition);
    }
    std::size_t next = 0;
    for (const std::string& member : members) {
      while (static_cast<int>(assignment[member].size()) < share[member]) {
        assignment[member].push_back(left_over.at(next++));
      }
      std::sort(assignment[member].begin(), assignment[member].end());
    }
    return assignment;
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

  kgroups::TopicOptions options_;
  std::vector<std::vector<OracleRecord>> logs_;  // partition -> records by offset
  std::map<std::string, Group> groups_;          // created by the first join
};

}  // namespace kgroups_model
