// SPDX-License-Identifier: Apache-2.0
#include "crash_comparison.h"

#include <cstdint>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "kgroups/kgroups.h"

namespace kgroups::cli {
namespace {

constexpr int kPartitions = 2;
constexpr int kRecords = 10;
// How many of its records A finishes before it crashes.
constexpr std::size_t kProcessedBeforeCrash = 2;

using RecordId = std::pair<int, std::int64_t>;

void append_orders(Topic& topic) {
  for (int i = 1; i <= kRecords; ++i) {
    (void)topic.append("order-" + std::to_string(i), "payment " + std::to_string(i));
  }
}

std::string partitions_of(const std::vector<int>& partitions) {
  std::string text = "[";
  for (std::size_t i = 0; i < partitions.size(); ++i) {
    text += (i > 0 ? ", " : "") + std::to_string(partitions[i]);
  }
  return text + "]";
}

std::string describe(const Record& record) {
  return "partition " + std::to_string(record.partition) + " offset " +
         std::to_string(record.offset) + "  " + std::string(record.key);
}

}  // namespace

void crash_in_consumer_group(std::ostream& out, CrashReplay& replay) {
  Topic topic(kPartitions);
  topic.join("billing", "A");
  topic.join("billing", "B");
  append_orders(topic);
  out << "   consumer group billing: A owns " << partitions_of(topic.assignment("billing", "A"))
      << ", B owns " << partitions_of(topic.assignment("billing", "B")) << "\n";

  const std::vector<Record> batch = topic.poll("billing", "A");
  std::set<RecordId> given;
  std::set<RecordId> processed;
  for (const Record& record : batch) given.emplace(record.partition, record.offset);
  out << "   A polls " << batch.size() << " records, processes " << kProcessedBeforeCrash
      << " of them and commits them:\n";
  std::map<int, std::int64_t> offsets;
  for (std::size_t i = 0; i < kProcessedBeforeCrash && i < batch.size(); ++i) {
    processed.emplace(batch[i].partition, batch[i].offset);
    offsets[batch[i].partition] = batch[i].offset + 1;
    out << "     A processed " << describe(batch[i]) << "\n";
  }
  topic.commit("billing", "A", offsets);
  if (batch.size() > kProcessedBeforeCrash) {
    const Record& unsaved = batch[kProcessedBeforeCrash];
    processed.emplace(unsaved.partition, unsaved.offset);
    out << "     A processed " << describe(unsaved) << ", then crashes before committing it\n";
  }
  out << "   B polls and commits its " << topic.poll("billing", "B").size() << " records\n";
  topic.commit("billing", "B");
  topic.leave("billing", "A");
  out << "   leave(\"billing\", \"A\"): rebalance, B owns "
      << partitions_of(topic.assignment("billing", "B"))
      << " and starts A's partition from the last commit:\n";
  for (const Record& record : topic.poll("billing", "B")) {
    if (given.count({record.partition, record.offset}) == 0) continue;
    ++replay.consumer_replayed;
    const bool done = processed.count({record.partition, record.offset}) != 0;
    if (done) ++replay.consumer_replayed_processed;
    out << "     B replays " << describe(record)
        << (done ? "  (A had processed it: a duplicate)" : "  (A had polled it)") << "\n";
  }
}

void crash_in_share_group(std::ostream& out, CrashReplay& replay) {
  TopicOptions options;
  options.share_auto_offset_reset = "earliest";
  Topic topic(kPartitions, options);
  topic.share_join("payments", "A");
  topic.share_join("payments", "B");
  append_orders(topic);
  out << "   share group payments: A reads "
      << partitions_of(topic.share_assignment("payments", "A")) << ", B reads "
      << partitions_of(topic.share_assignment("payments", "B"))
      << " (a partition may have several readers)\n";

  const std::vector<ShareRecord> batch =
      topic.share_poll("payments", "A", static_cast<int>(kProcessedBeforeCrash) + 1);
  out << "   A acquires " << batch.size() << " records (locked to A until it acknowledges):\n";
  for (const ShareRecord& record : batch) out << "     A holds " << describe(record.record) << "\n";
  for (const ShareRecord& record : topic.share_poll("payments", "B")) {
    out << "   B acquires " << describe(record.record) << " (A holds the others) and accepts it\n";
  }
  topic.acknowledge("payments", "B", AcknowledgeType::kAccept);
  std::set<RecordId> accepted;
  std::vector<RecordId> done;
  for (std::size_t i = 0; i < kProcessedBeforeCrash && i < batch.size(); ++i) {
    done.emplace_back(batch[i].record.partition, batch[i].record.offset);
    accepted.insert(done.back());
  }
  topic.acknowledge("payments", "A", done, AcknowledgeType::kAccept);
  out << "   A processes " << kProcessedBeforeCrash << " and accepts them (acknowledge kAccept)";
  replay.share_held_at_crash = batch.size() - done.size();
  if (replay.share_held_at_crash > 0) {
    out << ", processes " << describe(batch[kProcessedBeforeCrash].record)
        << ",\n   then crashes before acknowledging it";
  }
  out << ": share_leave(\"payments\", \"A\") releases the " << replay.share_held_at_crash
      << " record(s) it holds\n";
  topic.share_leave("payments", "A");
  out << "   B now reads " << partitions_of(topic.share_assignment("payments", "B"))
      << " and polls:\n";
  for (const ShareRecord& record : topic.share_poll("payments", "B")) {
    const bool again = record.delivery_count > 1;
    if (again) ++replay.share_redelivered;
    if (accepted.count({record.record.partition, record.record.offset}) != 0) {
      ++replay.share_redelivered_processed;
    }
    out << "     B gets " << describe(record.record) << "  delivery count " << record.delivery_count
        << (again ? "  (A held it: redelivered)" : "") << "\n";
  }
  topic.acknowledge("payments", "B", AcknowledgeType::kAccept);
}

}  // namespace kgroups::cli
