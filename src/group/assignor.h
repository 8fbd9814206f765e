// SPDX-License-Identifier: Apache-2.0
//
// Assignor: the plug point for partition assignment strategies (range now;
// round-robin, sticky and cooperative-sticky later). A group picks its assignor
// by name; an implementation carries no state between calls, so one instance
// may serve every group from any thread.
#pragma once

#include <span>
#include <string_view>
#include <vector>

namespace kgroups {

class Assignor {
 public:
  virtual ~Assignor() = default;

  // The strategy's name as Kafka's clients spell it ("range").
  [[nodiscard]] virtual std::string_view name() const noexcept = 0;

  // Splits partitions 0..num_partitions-1 of one topic among the members.
  // Preconditions: num_partitions >= 1; member_ids sorted ascending (bytewise)
  // with no duplicates; assignments.size() == member_ids.size().
  // Postcondition: assignments[i] holds member i's partitions in ascending
  // order, every partition exactly once over all members. Previous contents of
  // `assignments` are discarded (their capacity is reused).
  virtual void assign(int num_partitions, std::span<const std::string_view> member_ids,
                      std::span<std::vector<int>> assignments) const = 0;
};

}  // namespace kgroups
