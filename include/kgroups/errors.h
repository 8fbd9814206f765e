// SPDX-License-Identifier: Apache-2.0
//
// NotAssignedError: thrown by Topic::commit with offsets when a named partition
// is not assigned to the committing consumer right now (SPEC.md, "Commit").
//
// The other errors of SPEC.md's table are the standard ones: std::out_of_range
// for a partition outside 0..num_partitions-1, std::invalid_argument for a bad
// num_partitions, max_records or offset. NotAssignedError derives from
// std::runtime_error and from neither of those, so bindings can map each apart.
#pragma once

#include <stdexcept>
#include <string>

namespace kgroups {

class NotAssignedError : public std::runtime_error {
 public:
  NotAssignedError(const std::string& message, int partition)
      : std::runtime_error(message), partition_(partition) {}

  // The first partition named in the commit that is not assigned to the consumer.
  [[nodiscard]] int partition() const noexcept { return partition_; }

 private:
  int partition_;
};

}  // namespace kgroups
