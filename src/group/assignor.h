// SPDX-License-Identifier: Apache-2.0
//
// Assignor: the plug point for partition assignment strategies (range,
// roundrobin, sticky, cooperative-sticky; SPEC.md, "Rebalance" and
// "Options"). A strategy also names its rebalance protocol: eager (every
// member restarts every partition from the committed offset) or cooperative
// (members keep their positions on the partitions they keep). An
// implementation carries no state between calls, so one instance may serve
// every group from any thread.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace kgroups {

enum class RebalanceProtocol : std::uint8_t { kEager, kCooperative };

class Assignor {
 public:
  virtual ~Assignor() = default;

  // The strategy's name as Kafka's clients spell it ("range").
  [[nodiscard]] virtual std::string_view name() const noexcept = 0;

  [[nodiscard]] virtual RebalanceProtocol protocol() const noexcept {
    return RebalanceProtocol::kEager;
  }

  // Splits partitions 0..num_partitions-1 of one topic among the members.
  // Preconditions: num_partitions >= 1; member_ids sorted ascending (bytewise)
  // with no duplicates; assignments.size() == member_ids.size(); `previous`
  // empty (no history) or previous[i] = member i's partitions before this
  // rebalance, ascending, disjoint (empty for a member that just joined).
  // Postcondition: assignments[i] holds member i's partitions in ascending
  // order, every partition exactly once over all members. Previous contents of
  // `assignments` are discarded (their capacity is reused).
  virtual void assign(int num_partitions, std::span<const std::string_view> member_ids,
                      std::span<const std::vector<int>> previous,
                      std::span<std::vector<int>> assignments) const = 0;

  // assign() with no previous assignment.
  void assign(int num_partitions, std::span<const std::string_view> member_ids,
              std::span<std::vector<int>> assignments) const {
    assign(num_partitions, member_ids, {}, assignments);
  }
};

}  // namespace kgroups
