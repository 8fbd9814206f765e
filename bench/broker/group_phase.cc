// SPDX-License-Identifier: Apache-2.0
//
// The group phase: options.members consumers of one group subscribe at the same
// moment, one polling thread each, and read every message between them. Like
// the consume phase it runs in rounds (the mock cluster keeps only 5 MiB per
// partition): round 0's messages exist before the subscription, and the clock
// runs from subscribe until round 0 is read; for each later round the members
// pause their partitions, the main thread produces the round (untimed), and the
// clock runs from the round's first message until the round is read.
// Threads share only the MessageLedger (thread-safe) and the atomics of
// GroupControl. Offsets are committed only on revocation, synchronously, before
// a member gives its partitions up, so the next owner resumes exactly where the
// last one stopped: a lost or duplicated message is the broker's fault.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "kafka_config.h"
#include "message_ledger.h"
#include "message_producer.h"
#include "phase_clock.h"
#include "phases.h"

namespace kgroups::bench {
namespace {

struct GroupControl {
  std::atomic<bool> stop{false};          // members leave their poll loops
  std::atomic<bool> hold{false};          // members keep their partitions paused
  std::atomic<double> first_message{-1};  // monotonic seconds of the first message since reset
};

struct Member {
  int id = 0;
  rd_kafka_t* consumer = nullptr;
  std::atomic<bool> paused{false};  // its current assignment is paused
  bool closing = false;             // set before rd_kafka_consumer_close: no commit then
  std::int64_t received = 0;        // messages polled, duplicates included
  std::int64_t duplicates = 0;      // messages the group had already received
  double first_message = -1;        // monotonic seconds
  int assignments = 0;              // partition sets handed to this member
  double first_assignment = -1;     // monotonic seconds of its first assignment
  std::string error;                // the first problem this member met
};

void on_rebalance(rd_kafka_t* consumer, rd_kafka_resp_err_t err,
                  rd_kafka_topic_partition_list_t* partitions, void* opaque) {
  auto* member = static_cast<Member*>(opaque);
  if (err == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS) {
    ++member->assignments;
    if (member->first_assignment < 0) member->first_assignment = monotonic_seconds();
    rd_kafka_assign(consumer, partitions);
    member->paused = false;  // a new assignment fetches; the poll loop re-pauses it if held
    return;
  }
  rd_kafka_resp_err_t commit_err =
      member->closing ? RD_KAFKA_RESP_ERR_NO_ERROR : rd_kafka_commit(consumer, nullptr, 0);
  if (commit_err != RD_KAFKA_RESP_ERR_NO_ERROR && commit_err != RD_KAFKA_RESP_ERR__NO_OFFSET &&
      member->error.empty()) {
    member->error = std::string("commit on revocation failed: ") + rd_kafka_err2str(commit_err);
  }
  rd_kafka_assign(consumer, nullptr);
}

void set_paused(Member& member, bool paused) {
  rd_kafka_topic_partition_list_t* assignment = nullptr;
  if (rd_kafka_assignment(member.consumer, &assignment) == RD_KAFKA_RESP_ERR_NO_ERROR) {
    if (paused) {
      rd_kafka_pause_partitions(member.consumer, assignment);
    } else {
      rd_kafka_resume_partitions(member.consumer, assignment);
    }
    rd_kafka_topic_partition_list_destroy(assignment);
  }
  member.paused = paused;
}

void poll_until_stopped(Member& member, MessageLedger& ledger, GroupControl& control) {
  while (!control.stop.load()) {
    bool hold = control.hold.load();
    if (hold != member.paused.load()) set_paused(member, hold);
    rd_kafka_message_t* message = rd_kafka_consumer_poll(member.consumer, 20);
    if (message == nullptr) continue;
    std::string problem;
    if (message->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      problem = std::string("consumer error: ") + rd_kafka_message_errstr(message);
    } else {
      double now = monotonic_seconds();
      if (member.first_message < 0) member.first_message = now;
      double none = -1;
      control.first_message.compare_exchange_strong(none, now);
      ++member.received;
      problem = ledger.record(message->key, message->key_len, message->payload, message->len,
                              message->partition);
      if (problem == "duplicate") {
        ++member.duplicates;
        problem.clear();
      }
    }
    rd_kafka_message_destroy(message);
    if (!problem.empty()) {
      member.error = problem;
      control.stop = true;
    }
  }
}

std::unique_ptr<Member> make_member(const BenchOptions& options, int id) {
  auto member = std::make_unique<Member>();
  member->id = id;
  rd_kafka_conf_t* config = make_kafka_config({{"bootstrap.servers", options.bootstrap},
                                               {"group.id", options.group_id},
                                               {"client.id", "bench-member-" + std::to_string(id)},
                                               {"auto.offset.reset", "earliest"},
                                               {"session.timeout.ms", "10000"},
                                               {"enable.auto.commit", "false"},
                                               {"enable.partition.eof", "false"},
                                               {"fetch.wait.max.ms", "100"},
                                               {"debug", options.debug}});
  rd_kafka_conf_set_rebalance_cb(config, on_rebalance);
  rd_kafka_conf_set_opaque(config, member.get());
  member->consumer = make_kafka_client(RD_KAFKA_CONSUMER, config);
  rd_kafka_poll_set_consumer(member->consumer);
  return member;
}

std::string describe(const std::vector<std::unique_ptr<Member>>& members, double start) {
  std::string report;
  for (const auto& member : members) {
    report +=
        " member " + std::to_string(member->id) + ": " + std::to_string(member->received) +
        " messages, " + std::to_string(member->duplicates) + " duplicates, " +
        std::to_string(member->assignments) + " assignments, first message after " +
        (member->first_message < 0
             ? std::string("none")
             : std::to_string(static_cast<int>((member->first_message - start) * 1000)) + " ms") +
        (member->error.empty() ? "" : ", error: " + member->error) + ";";
  }
  return report;
}

// Waits until the ledger holds `target` messages, a member failed, or the
// deadline passed; returns whether the target was reached.
bool wait_for(const MessageLedger& ledger, std::int64_t target, const GroupControl& control,
              double deadline) {
  while (ledger.unique() < target && !control.stop.load() && monotonic_seconds() < deadline) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return ledger.unique() >= target;
}

// Waits until some member has received a message, a member failed, or
// `deadline` passed; returns whether a message arrived.
bool wait_for_join(const GroupControl& control, double deadline) {
  while (control.first_message.load() < 0 && !control.stop.load() &&
         monotonic_seconds() < deadline) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return control.first_message.load() >= 0;
}

bool wait_paused(const std::vector<std::unique_ptr<Member>>& members, const GroupControl& control,
                 double deadline) {
  auto all_paused = [&] {
    return std::all_of(members.begin(), members.end(),
                       [](const auto& m) { return m->paused.load(); });
  };
  while (!all_paused() && !control.stop.load() && monotonic_seconds() < deadline) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return all_paused();
}

}  // namespace

PhaseResult run_group(const BenchOptions& options) {
  MessageProducer producer(options);
  MessageLedger ledger(options.messages, options.partitions);
  std::vector<std::unique_ptr<Member>> members;
  members.reserve(static_cast<std::size_t>(options.members));
  for (int id = 0; id < options.members; ++id) members.push_back(make_member(options, id));

  double deadline = monotonic_seconds() + options.timeout_s;
  std::int64_t round_end = std::min(options.round_messages, options.messages);
  producer.produce(0, round_end, deadline);

  GroupControl control;
  PhaseClock clock(options.broker_pid);
  double start = monotonic_seconds();
  clock.start(start);
  rd_kafka_topic_partition_list_t* topics = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(topics, options.topic.c_str(), RD_KAFKA_PARTITION_UA);
  for (auto& member : members) {
    rd_kafka_resp_err_t err = rd_kafka_subscribe(member->consumer, topics);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      throw std::runtime_error(std::string("group: rd_kafka_subscribe: ") + rd_kafka_err2str(err));
    }
  }
  rd_kafka_topic_partition_list_destroy(topics);
  std::vector<std::thread> threads;
  threads.reserve(members.size());
  for (auto& member : members) {
    threads.emplace_back([&, m = member.get()] { poll_until_stopped(*m, ledger, control); });
  }

  std::string failure;
  if (!wait_for_join(control, std::min(deadline, start + options.join_timeout_s))) {
    failure = "no member received a message within " + std::to_string(options.join_timeout_s) +
              " s of subscribing: the group did not form (does the broker answer FindCoordinator, "
              "JoinGroup and SyncGroup? see its log)";
  }
  const double join_time = control.first_message.load();
  while (failure.empty()) {
    if (!wait_for(ledger, round_end, control, deadline)) {
      failure = "timed out or failed with " + std::to_string(ledger.unique()) + " of " +
                std::to_string(round_end) +
                " messages read; first missing: " + ledger.first_missing(5);
      break;
    }
    clock.stop();
    if (round_end == options.messages) break;
    control.hold = true;
    if (!wait_paused(members, control, deadline)) {
      failure = "members did not pause their partitions in time";
      break;
    }
    std::int64_t count = std::min(options.round_messages, options.messages - round_end);
    producer.produce(round_end, count, deadline);
    round_end += count;
    // The round's clock starts at its first message: librdkafka takes up to a
    // second to fetch again after a resume, which says nothing of the broker.
    control.first_message = -1;
    control.hold = false;
    if (!wait_for_join(control, deadline)) {
      failure = "no message of messages " + std::to_string(round_end - count) + ".." +
                std::to_string(round_end - 1) + " arrived after the members resumed";
      break;
    }
    clock.start(control.first_message.load());
  }
  control.stop = true;
  for (auto& thread : threads) thread.join();
  std::string report = describe(members, start);
  std::fprintf(stderr, "group:%s\n", report.c_str());
  for (auto& member : members) {
    member->closing = true;
    rd_kafka_consumer_close(member->consumer);
    rd_kafka_destroy(member->consumer);
  }

  if (!failure.empty()) throw std::runtime_error("group: " + failure + ";" + report);
  if (ledger.duplicates() > 0) {
    throw std::runtime_error("group: " + std::to_string(ledger.duplicates()) +
                             " messages were delivered twice although each member commits "
                             "before giving partitions up;" +
                             report);
  }
  for (const auto& member : members) {
    // Not an error: with --initial-rebalance-delay-ms 0 the first member may read
    // everything before a later member's join completes (at the first member's
    // next heartbeat).
    if (member->received == 0) {
      std::fprintf(stderr, "group: warning: member %d received nothing (it joined too late)\n",
                   member->id);
    }
  }
  PhaseResult result{.phase = "group",
                     .messages = options.messages,
                     .seconds = clock.wall_seconds(),
                     .client_cpu_seconds = clock.client_cpu_seconds(),
                     .broker_cpu_seconds = clock.broker_cpu_seconds(),
                     .broker_run_seconds = clock.broker_run_seconds()};
  result.join_ms = (join_time - start) * 1000;
  result.after_join_seconds = result.seconds - result.join_ms / 1000;
  double all_joined = start;
  bool all_received = true;
  for (const auto& member : members) {
    all_joined = std::max(all_joined, member->first_message);
    all_received = all_received && member->first_message >= 0;
  }
  result.all_joined_ms = all_received ? (all_joined - start) * 1000 : -1;
  double first_assignment = deadline;
  for (const auto& member : members) {
    if (member->first_assignment >= 0) {
      first_assignment = std::min(first_assignment, member->first_assignment);
    }
  }
  result.assigned_ms = (first_assignment - start) * 1000;
  result.assignments = 0;
  for (const auto& member : members) result.assignments += member->assignments;
  return result;
}

}  // namespace kgroups::bench
