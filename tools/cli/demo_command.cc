// SPDX-License-Identifier: Apache-2.0
#include "demo_command.h"

#include <iomanip>
#include <map>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "crash_comparison.h"
#include "kgroups/kgroups.h"
#include "replay_comparison.h"

namespace kgroups::cli {
namespace {

// Narrates calls on one Topic of 6 partitions.
class Walkthrough {
 public:
  explicit Walkthrough(std::ostream& out) : out_(out) {}

  void heading(const std::string& text) { out_ << "\n== " << text << " ==\n"; }
  void say(const std::string& text) { out_ << "   " << text << "\n"; }

  void join(const std::string& group, const std::string& consumer) {
    topic_.join(group, consumer);
    out_ << "> join(\"" << group << "\", \"" << consumer << "\")  -> rebalance of " << group
         << "\n";
    remember(group, consumer, true);
    assignment_table(group);
  }

  void leave(const std::string& group, const std::string& consumer) {
    topic_.leave(group, consumer);
    out_ << "> leave(\"" << group << "\", \"" << consumer << "\")  -> rebalance of " << group
         << "\n";
    remember(group, consumer, false);
    assignment_table(group);
  }

  void append(const std::string& key, const std::string& value) {
    const auto [partition, offset] = topic_.append(key, value);
    out_ << "> append(\"" << key << "\", \"" << value << "\")  -> (" << partition << ", " << offset
         << ")\n";
  }

  std::vector<Record> poll(const std::string& group, const std::string& consumer) {
    std::vector<Record> records = topic_.poll(group, consumer);
    out_ << "> poll(\"" << group << "\", \"" << consumer << "\")  -> " << records.size()
         << " record(s)\n";
    for (const Record& record : records) {
      out_ << "     partition " << record.partition << " offset " << record.offset << "  "
           << record.key << " = " << record.value << "\n";
    }
    return records;
  }

  void commit(const std::string& group, const std::string& consumer) {
    topic_.commit(group, consumer);
    out_ << "> commit(\"" << group << "\", \"" << consumer << "\")  -> ok\n";
    offsets_table(group);
  }

  void commit(const std::string& group, const std::string& consumer,
              const std::map<int, std::int64_t>& offsets) {
    out_ << "> commit(\"" << group << "\", \"" << consumer << "\", {";
    for (const auto& [partition, offset] : offsets) out_ << partition << ": " << offset;
    out_ << "})";
    try {
      topic_.commit(group, consumer, offsets);
      out_ << "  -> ok\n";
    } catch (const NotAssignedError& error) {
      out_ << "\n  -> NotAssignedError: " << error.what() << "\n";
    }
  }

  void offsets_table(const std::string& group) {
    out_ << "   committed offsets of " << group << ":\n"
         << "     partition  end  committed  lag\n";
    for (int partition = 0; partition < topic_.num_partitions(); ++partition) {
      const std::int64_t end = topic_.end_offset(partition);
      const std::int64_t committed = topic_.committed(group, partition);
      out_ << "     " << std::setw(9) << partition << std::setw(5) << end << std::setw(11)
           << committed << std::setw(5) << end - committed << "\n";
    }
  }

 private:
  void remember(const std::string& group, const std::string& consumer, bool member) {
    std::vector<std::string>& members = members_[group];
    std::erase(members, consumer);
    if (member) members.push_back(consumer);
  }

  void assignment_table(const std::string& group) {
    out_ << "   assignment of " << group
         << " (range assignor over members sorted by id; each member restarts every\n"
         << "   partition it owns from the group's committed offset):\n";
    std::map<std::string, bool> sorted;
    for (const std::string& member : members_[group]) sorted[member] = true;
    for (const auto& [member, unused] : sorted) {
      std::ostringstream partitions;
      for (const int partition : topic_.assignment(group, member)) partitions << " " << partition;
      const std::string list = partitions.str();
      out_ << "     " << member << ":" << (list.empty() ? " (idle)" : list) << "\n";
    }
  }

  std::ostream& out_;
  Topic topic_{6};
  std::map<std::string, std::vector<std::string>> members_;  // as narrated, per group
};

}  // namespace

// Where `make serve` puts kgroupsd's console (its --http address).
constexpr std::string_view kConsoleUrl = "http://127.0.0.1:8080/";

int run_demo(std::ostream& out) {
  Walkthrough demo(out);
  out << "kgroups demo: SPEC.md's worked example on a topic of 6 partitions\n";

  demo.heading("Three consumers join group billing");
  demo.join("billing", "A");
  demo.join("billing", "B");
  demo.join("billing", "C");

  demo.heading("Ten records; FNV-1a of the key picks the partition");
  const char* const keys[] = {"alice", "bob",   "carol", "dave",  "erin",
                              "frank", "alice", "grace", "heidi", "bob"};
  int order = 1;
  for (const char* key : keys) demo.append(key, "order-" + std::to_string(order++));

  demo.heading("A polls its partitions (0 first, then 1) and commits");
  demo.poll("billing", "A");
  demo.commit("billing", "A");

  demo.heading("B crashes: the group rebalances eagerly");
  demo.leave("billing", "B");
  demo.say("A now owns partition 2 and reads it from billing's committed offset (0):");
  demo.poll("billing", "A");

  demo.heading("C tries to commit partition 2, which belongs to A now");
  demo.commit("billing", "C", {{2, 1}});
  demo.say("nothing was committed; a stale consumer cannot overwrite A's progress");

  demo.heading("Another group reads the whole topic independently");
  demo.join("analytics", "X");
  demo.poll("analytics", "X");
  demo.commit("analytics", "X");

  demo.heading("Where billing stands");
  demo.offsets_table("billing");

  out << "\nkgroups demo, second act: what a rebalance costs, eager range vs cooperative-sticky\n";
  demo.heading("assignor \"range\" (eager: every member restarts from the committed offsets)");
  const ReplayCount eager = replay_after_leave("range", out);
  demo.heading(
      "assignor \"cooperative-sticky\" (members keep their positions on partitions they keep)");
  const ReplayCount cooperative = replay_after_leave("cooperative-sticky", out);
  demo.heading("The difference");
  demo.say("after C left, range replayed " + std::to_string(eager.replayed) +
           " records and cooperative-sticky " + std::to_string(cooperative.replayed) +
           ": only C's uncommitted records");
  demo.say("must be read again; eagerly A and B also re-read their own uncommitted ones.");

  out << "\nkgroups demo, third act: the same crash under a consumer group and a share group\n";
  demo.heading("Consumer group: partitions are owned; progress is one committed offset each");
  CrashReplay crash;
  crash_in_consumer_group(out, crash);
  demo.heading("Share group: records are acquired, locked and acknowledged one by one");
  crash_in_share_group(out, crash);
  demo.heading("The difference");
  demo.say("the consumer group replayed " + std::to_string(crash.consumer_replayed) +
           " record(s) from the last commit, " + std::to_string(crash.consumer_replayed_processed) +
           " of them already processed;");
  demo.say("the share group redelivered only what A held: " +
           std::to_string(crash.share_redelivered) + " record(s), with delivery count 2, " +
           std::to_string(crash.share_redelivered_processed) + " of them accepted before.");
  demo.say("a consumer group commits a position per partition; a share group acknowledges");
  demo.say("each record, so a crash replays only the records in the crashed member's hands.");

  demo.heading("Watch it live");
  demo.say("make serve, then open the console at " + std::string(kConsoleUrl));
  demo.say("its playground starts consumers in a group and draws each rebalance as it happens.");
  return 0;
}

}  // namespace kgroups::cli
