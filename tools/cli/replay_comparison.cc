// SPDX-License-Identifier: Apache-2.0
#include "replay_comparison.h"

#include <cstdint>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "kgroups/kgroups.h"

namespace kgroups::cli {
namespace {

constexpr int kPartitions = 6;
constexpr int kRecordsPerBatch = 12;
const char* const kConsumers[] = {"A", "B", "C"};

std::string partition_list(const std::vector<int>& partitions, const char* when_empty) {
  std::string text;
  for (const int partition : partitions) text += " " + std::to_string(partition);
  return text.empty() ? when_empty : text;
}

void append_batch(Topic& topic, int batch) {
  for (int i = 1; i <= kRecordsPerBatch; ++i) {
    const std::string key = "order-" + std::to_string((batch - 1) * kRecordsPerBatch + i);
    (void)topic.append(key, "batch " + std::to_string(batch));
  }
}

void print_last_rebalance(const Topic& topic, std::ostream& out) {
  const Rebalance last = topic.rebalances("billing").back();
  out << "   generation " << last.generation << " (" << last.cause << " of " << last.consumer
      << "):\n";
  for (const MemberRebalance& member : last.members) {
    out << "     " << member.id << ": owns" << partition_list(member.assignment, " nothing")
        << "; revoked" << partition_list(member.revoked, " nothing") << "; assigned"
        << partition_list(member.assigned, " nothing") << "\n";
  }
}

}  // namespace

ReplayCount replay_after_leave(std::string_view assignor, std::ostream& out) {
  Topic topic(kPartitions, TopicOptions{.assignor = std::string(assignor)});
  for (const char* consumer : kConsumers) topic.join("billing", consumer);
  out << "   A, B and C join billing:";
  for (const char* consumer : kConsumers) {
    out << "  " << consumer << " [" << partition_list(topic.assignment("billing", consumer), "")
        << " ]";
  }
  out << "\n";

  std::set<std::pair<int, std::int64_t>> given;  // every (partition, offset) polled so far
  std::vector<int> owner_before(kPartitions, -1);
  append_batch(topic, 1);
  for (int consumer = 0; consumer < 3; ++consumer) {
    for (const Record& record : topic.poll("billing", kConsumers[consumer])) {
      given.emplace(record.partition, record.offset);
    }
    topic.commit("billing", kConsumers[consumer]);
    for (const int partition : topic.assignment("billing", kConsumers[consumer])) {
      owner_before[static_cast<std::size_t>(partition)] = consumer;
    }
  }
  append_batch(topic, 2);
  for (const char* consumer : kConsumers) {
    for (const Record& record : topic.poll("billing", consumer)) {
      given.emplace(record.partition, record.offset);
    }
  }
  out << "   each polled and committed batch 1 (" << kRecordsPerBatch
      << " records), then polled batch 2 without committing it\n"
      << "   C crashes: leave(\"billing\", \"C\")\n";
  topic.leave("billing", "C");
  print_last_rebalance(topic, out);

  ReplayCount count;
  for (int consumer = 0; consumer < 2; ++consumer) {
    for (const Record& record : topic.poll("billing", kConsumers[consumer])) {
      ++count.polled_after_leave;
      if (given.count({record.partition, record.offset}) == 0) continue;
      ++count.replayed;
      const bool moved = owner_before[static_cast<std::size_t>(record.partition)] != consumer;
      if (moved) ++count.replayed_from_moved;
      out << "     " << kConsumers[consumer] << " replays partition " << record.partition
          << " offset " << record.offset << "  " << record.key
          << (moved ? "  (moved from another member)" : "  (its own partition)") << "\n";
    }
  }
  out << "   " << assignor << ": " << count.replayed << " record(s) replayed, "
      << count.replayed - count.replayed_from_moved << " of them on partitions that did not move\n";
  return count;
}

}  // namespace kgroups::cli
