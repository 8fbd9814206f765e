// SPDX-License-Identifier: Apache-2.0
//
// NotAssignedError: thrown by Topic::commit with offsets when a named partition
// is not assigned to the committing consumer right now (SPEC.md, "Commit").
// NoOffsetError: thrown by Topic::poll under auto_offset_reset "none" when the
// group has no committed offset for some of the consumer's partitions.
//
// The other errors of SPEC.md's table are the standard ones: std::out_of_range
// for a partition outside 0..num_partitions-1, std::invalid_argument for a bad
// num_partitions, max_records or offset. NotAssignedError derives from
// std::runtime_error and from neither of those, so bindings can map each apart.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

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

class NoOffsetError : public std::runtime_error {
 public:
  NoOffsetError(const std::string& message, std::vector<int> partitions)
      : std::runtime_error(message), partitions_(std::move(partitions)) {}

  // The consumer's partitions that have neither a position nor a committed
  // offset, ascending.
  [[nodiscard]] const std::vector<int>& partitions() const noexcept { return partitions_; }

 private:
  std::vector<int> partitions_;
};

// An acknowledgement named a record the member does not hold now (never
// acquired, acquired by another member, already acknowledged, or its lock ran
// out). Nothing of the acknowledgement was applied.
class NotAcquiredError : public std::runtime_error {
 public:
  NotAcquiredError(const std::string& message, int partition, std::int64_t offset)
      : std::runtime_error(message), partition_(partition), offset_(offset) {}

  // The first record named that the member does not hold.
  [[nodiscard]] int partition() const noexcept { return partition_; }
  [[nodiscard]] std::int64_t offset() const noexcept { return offset_; }

 private:
  int partition_;
  std::int64_t offset_;
};

}  // namespace kgroups
