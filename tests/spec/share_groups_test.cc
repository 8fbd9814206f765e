// SPDX-License-Identifier: Apache-2.0
//
// SPEC.md, "Share groups": one test per rule, named after it (SG1..SG13): one
// namespace with consumer groups, the simple share assignor, the start offset
// (latest by default), acquisition and locks, acknowledgement (accept, release,
// reject; only what the member holds, all or nothing), the clock, what a
// departure replays, the delivery-count limit, the in-flight bound, and the
// options' ranges.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "kgroups/kgroups.h"
#include "reference_keys.h"

namespace {

using kgroups::AcknowledgeType;
using kgroups::ShareRecord;
using kgroups_spec::append_to_partition;
using Offsets = std::vector<std::pair<int, std::int64_t>>;

// {partition, offset, delivery_count} of each record, in order.
struct Delivery {
  int partition = 0;
  std::int64_t offset = 0;
  int delivery_count = 0;
  friend bool operator==(const Delivery&, const Delivery&) = default;
};

std::vector<Delivery> deliveries(const std::vector<ShareRecord>& records) {
  std::vector<Delivery> result;
  for (const ShareRecord& record : records) {
    result.push_back({record.record.partition, record.record.offset, record.delivery_count});
  }
  return result;
}

kgroups::TopicOptions earliest() {
  kgroups::TopicOptions options;
  options.share_auto_offset_reset = "earliest";
  return options;
}

// One partition holding `records` records, read from offset 0 by the share group "q"'s
// members A and B.
kgroups::Topic two_readers(int records, const kgroups::TopicOptions& options = earliest()) {
  kgroups::Topic topic(1, options);
  append_to_partition(topic, 0, records);
  topic.share_join("q", "A");
  topic.share_join("q", "B");
  return topic;
}

// SG1: consumer groups and share groups have one namespace.
TEST(SpecShareGroups, SG1NamesAreOneNamespace) {
  kgroups::Topic topic(3);
  topic.join("billing", "A");
  EXPECT_THROW(topic.share_join("billing", "A"), std::invalid_argument);
  EXPECT_TRUE(topic.share_assignment("billing", "A").empty());
  EXPECT_EQ(topic.assignment("billing", "A"), (std::vector<int>{0, 1, 2}));

  topic.share_join("queue", "A");
  try {
    topic.join("queue", "B");
    FAIL() << "join of a share group's name did not throw";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("\"queue\" is a share group"), std::string::npos)
        << error.what();
  }
  EXPECT_TRUE(topic.assignment("queue", "B").empty());
  EXPECT_EQ(topic.share_assignment("queue", "A"), (std::vector<int>{0, 1, 2}));
}

// SG2: Kafka's simple share assignor: hash onto one partition, unheld partitions round
// robin, members keep what they hold; several members may share a partition.
TEST(SpecShareGroups, SG2SimpleAssignorSharesPartitions) {
  kgroups::Topic topic(6);
  topic.share_join("q", "A");  // hashCode("A") = 65, 65 % 6 = 5; the rest round robin to A
  EXPECT_EQ(topic.share_assignment("q", "A"), (std::vector<int>{0, 1, 2, 3, 4, 5}));
  topic.share_join("q", "B");  // hashCode("B") = 66 -> 0; A keeps everything it holds
  EXPECT_EQ(topic.share_assignment("q", "A"), (std::vector<int>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(topic.share_assignment("q", "B"), (std::vector<int>{0}));
  topic.share_leave("q", "A");  // B: 0 by hash, the unheld 1..5 round robin
  EXPECT_EQ(topic.share_assignment("q", "B"), (std::vector<int>{0, 1, 2, 3, 4, 5}));
  EXPECT_TRUE(topic.share_assignment("q", "A").empty());
  EXPECT_TRUE(topic.share_assignment("unknown", "B").empty());
}

// SG3: a partition assigned to the group for the first time starts at its end offset
// (share_auto_offset_reset "latest", Kafka's default) or at 0 ("earliest").
TEST(SpecShareGroups, SG3StartOffsetIsLatestByDefault) {
  kgroups::Topic topic(1);
  append_to_partition(topic, 0, 3);
  EXPECT_EQ(topic.share_start_offset("q", 0), 3);  // what the reset would give now
  topic.share_join("q", "A");
  EXPECT_TRUE(topic.share_poll("q", "A").empty());
  append_to_partition(topic, 0, 1);
  EXPECT_EQ(deliveries(topic.share_poll("q", "A")), (std::vector<Delivery>{{0, 3, 1}}));
  EXPECT_EQ(topic.share_start_offset("q", 0), 3);

  kgroups::Topic early(1, earliest());
  append_to_partition(early, 0, 2);
  early.share_join("q", "A");
  EXPECT_EQ(deliveries(early.share_poll("q", "A")), (std::vector<Delivery>{{0, 0, 1}, {0, 1, 1}}));
}

// SG4: share_poll acquires, partitions ascending, each partition's oldest available
// records first and then new ones, up to max_records; the records view the log.
TEST(SpecShareGroups, SG4PollAcquiresAvailableThenNewRecords) {
  kgroups::Topic topic(2, earliest());
  append_to_partition(topic, 1, 2, "one-");
  append_to_partition(topic, 0, 3, "zero-");
  topic.share_join("q", "A");
  const std::vector<ShareRecord> first = topic.share_poll("q", "A", 4);
  EXPECT_EQ(deliveries(first), (std::vector<Delivery>{{0, 0, 1}, {0, 1, 1}, {0, 2, 1}, {1, 0, 1}}));
  EXPECT_EQ(first[0].record.value, "zero-0");
  EXPECT_EQ(first[3].record.value, "one-0");
  topic.acknowledge("q", "A", Offsets{{0, 1}}, AcknowledgeType::kRelease);
  append_to_partition(topic, 0, 1, "zero-new-");
  // Partition 0: the released offset 1 (count 2), then the new offset 3; then partition 1.
  EXPECT_EQ(deliveries(topic.share_poll("q", "A")),
            (std::vector<Delivery>{{0, 1, 2}, {0, 3, 1}, {1, 1, 1}}));
  EXPECT_TRUE(topic.share_poll("q", "A", 0).empty());
}

// SG5: an acquired record is locked to its member: no other member acquires it.
TEST(SpecShareGroups, SG5AcquiredRecordGoesToOneMemberOnly) {
  kgroups::Topic topic = two_readers(4);
  EXPECT_EQ(topic.share_assignment("q", "B"), (std::vector<int>{0}));  // both read partition 0
  EXPECT_EQ(deliveries(topic.share_poll("q", "A", 3)),
            (std::vector<Delivery>{{0, 0, 1}, {0, 1, 1}, {0, 2, 1}}));
  EXPECT_EQ(deliveries(topic.share_poll("q", "B")), (std::vector<Delivery>{{0, 3, 1}}));
  EXPECT_TRUE(topic.share_poll("q", "B").empty());
}

// SG6: accept is final, release makes the record available again (delivered with a
// higher count, to any member), reject archives it.
TEST(SpecShareGroups, SG6AcceptReleaseReject) {
  kgroups::Topic topic = two_readers(3);
  (void)topic.share_poll("q", "A");
  topic.acknowledge("q", "A", Offsets{{0, 0}}, AcknowledgeType::kAccept);
  topic.acknowledge("q", "A", Offsets{{0, 1}}, AcknowledgeType::kRelease);
  topic.acknowledge("q", "A", Offsets{{0, 2}}, AcknowledgeType::kReject);
  EXPECT_EQ(deliveries(topic.share_poll("q", "B")), (std::vector<Delivery>{{0, 1, 2}}));
  const kgroups::Topic::SharePartitionState state = topic.share_partition_state("q", 0);
  EXPECT_EQ(state.start_offset, 1);
  EXPECT_EQ(state.end_offset, 3);
  EXPECT_EQ(state.acquired, 1);
  EXPECT_EQ(state.archived, 1);
  EXPECT_EQ(state.deliveries, 4);
  EXPECT_EQ(state.redeliveries, 1);
}

// SG7: a member acknowledges only records it holds now; otherwise NotAcquiredError names
// the first such record and nothing of the acknowledgement is applied.
TEST(SpecShareGroups, SG7AcknowledgeOnlyWhatYouHoldAllOrNothing) {
  kgroups::Topic topic = two_readers(3);
  (void)topic.share_poll("q", "A", 2);
  (void)topic.share_poll("q", "B", 1);
  try {
    topic.acknowledge("q", "A", Offsets{{0, 0}, {0, 2}, {0, 1}}, AcknowledgeType::kAccept);
    FAIL() << "acknowledging B's record did not throw";
  } catch (const kgroups::NotAcquiredError& error) {
    EXPECT_EQ(error.partition(), 0);
    EXPECT_EQ(error.offset(), 2);
    const std::string message = error.what();
    EXPECT_NE(message.find("\"A\""), std::string::npos) << message;
    EXPECT_NE(message.find("poll it first"), std::string::npos) << message;
  }
  EXPECT_EQ(topic.share_partition_state("q", 0).acquired, 3);  // offset 0 still A's
  topic.acknowledge("q", "A", Offsets{{0, 0}}, AcknowledgeType::kAccept);
  EXPECT_THROW(topic.acknowledge("q", "A", Offsets{{0, 0}}, AcknowledgeType::kAccept),
               kgroups::NotAcquiredError);  // already acknowledged
  EXPECT_THROW(topic.acknowledge("q", "C", Offsets{{0, 1}}, AcknowledgeType::kAccept),
               kgroups::NotAcquiredError);  // not a member
  EXPECT_THROW(topic.acknowledge("q", "A", Offsets{{7, 0}}, AcknowledgeType::kAccept),
               kgroups::NotAcquiredError);  // outside the topic
  EXPECT_THROW(topic.acknowledge("q", "A", Offsets{{0, 1}}, AcknowledgeType::kGap),
               std::invalid_argument);
  EXPECT_TRUE(topic.share_partition_state("q", 0).acquired == 2);
}

// SG8: acknowledge without records covers every record the member holds now.
TEST(SpecShareGroups, SG8ImplicitAcknowledgeCoversEverythingHeld) {
  kgroups::Topic topic(2, earliest());
  append_to_partition(topic, 0, 2);
  append_to_partition(topic, 1, 2);
  topic.share_join("q", "A");
  (void)topic.share_poll("q", "A");
  topic.acknowledge("q", "A", AcknowledgeType::kAccept);
  EXPECT_EQ(topic.share_start_offset("q", 0), 2);
  EXPECT_EQ(topic.share_start_offset("q", 1), 2);
  EXPECT_TRUE(topic.share_poll("q", "A").empty());
  topic.acknowledge("q", "nobody", AcknowledgeType::kAccept);  // holds nothing: no error
}

// SG9: a lock runs record_lock_duration_ms on the Topic's clock; once the clock reaches
// its deadline the record is available again, and the old holder cannot acknowledge it.
TEST(SpecShareGroups, SG9LocksExpireOnTheClock) {
  kgroups::TopicOptions options = earliest();
  options.record_lock_duration_ms = 100;
  kgroups::Topic topic = two_readers(1, options);
  EXPECT_EQ(topic.clock(), 0);
  (void)topic.share_poll("q", "A");
  topic.advance_clock(99);
  EXPECT_TRUE(topic.share_poll("q", "B").empty());
  topic.advance_clock(1);
  EXPECT_EQ(topic.clock(), 100);
  EXPECT_EQ(topic.share_partition_state("q", 0).available, 1);
  EXPECT_THROW(topic.acknowledge("q", "A", Offsets{{0, 0}}, AcknowledgeType::kAccept),
               kgroups::NotAcquiredError);
  EXPECT_EQ(deliveries(topic.share_poll("q", "B")), (std::vector<Delivery>{{0, 0, 2}}));
  EXPECT_THROW(topic.advance_clock(-1), std::invalid_argument);
}

// SG10: a member that leaves (or crashes) releases what it holds: those records go to the
// others with a higher delivery count; nothing acknowledged is delivered again.
TEST(SpecShareGroups, SG10LeaveRedeliversOnlyWhatWasHeld) {
  kgroups::Topic topic = two_readers(4);
  (void)topic.share_poll("q", "A", 3);
  topic.acknowledge("q", "A", Offsets{{0, 0}}, AcknowledgeType::kAccept);
  topic.share_leave("q", "A");  // crashes holding 1 and 2
  EXPECT_EQ(deliveries(topic.share_poll("q", "B")),
            (std::vector<Delivery>{{0, 1, 2}, {0, 2, 2}, {0, 3, 1}}));
  topic.share_leave("q", "A");  // not a member: nothing
}

// SG11: a record released (by its member, an expired lock or a departure) after its
// delivery_count_limit-th delivery is archived instead of delivered again.
TEST(SpecShareGroups, SG11DeliveryCountLimitArchives) {
  kgroups::TopicOptions options = earliest();
  options.delivery_count_limit = 2;
  options.record_lock_duration_ms = 10;
  kgroups::Topic topic(1, options);
  append_to_partition(topic, 0, 1);
  topic.share_join("q", "A");
  EXPECT_EQ(deliveries(topic.share_poll("q", "A")), (std::vector<Delivery>{{0, 0, 1}}));
  topic.acknowledge("q", "A", AcknowledgeType::kRelease);
  EXPECT_EQ(deliveries(topic.share_poll("q", "A")), (std::vector<Delivery>{{0, 0, 2}}));
  topic.advance_clock(10);  // released at the limit: archived
  EXPECT_TRUE(topic.share_poll("q", "A").empty());
  EXPECT_EQ(topic.share_start_offset("q", 0), 1);
}

// SG12: the start offset moves past every leading accepted, rejected or archived record;
// a record still in flight below others holds it back.
TEST(SpecShareGroups, SG12StartOffsetMovesPastDoneRecords) {
  kgroups::Topic topic(1, earliest());
  append_to_partition(topic, 0, 3);
  topic.share_join("q", "A");
  (void)topic.share_poll("q", "A");
  topic.acknowledge("q", "A", Offsets{{0, 1}, {0, 2}}, AcknowledgeType::kAccept);
  EXPECT_EQ(topic.share_start_offset("q", 0), 0);
  EXPECT_EQ(topic.share_partition_state("q", 0).acknowledged, 2);
  topic.acknowledge("q", "A", Offsets{{0, 0}}, AcknowledgeType::kReject);
  EXPECT_EQ(topic.share_start_offset("q", 0), 3);
  EXPECT_EQ(topic.share_partition_state("q", 0).acknowledged, 0);
  EXPECT_THROW((void)topic.share_start_offset("q", 1), std::out_of_range);
}

// SG13: at most partition_max_record_locks records between the start and end offsets.
TEST(SpecShareGroups, SG13MaxRecordLocksBoundsRecordsInFlight) {
  kgroups::TopicOptions options = earliest();
  options.partition_max_record_locks = 100;
  kgroups::Topic topic(1, options);
  append_to_partition(topic, 0, 150);
  topic.share_join("q", "A");
  EXPECT_EQ(topic.share_poll("q", "A", 1000).size(), 100U);
  EXPECT_TRUE(topic.share_poll("q", "A", 1000).empty());
  topic.acknowledge("q", "A", Offsets{{0, 0}}, AcknowledgeType::kAccept);
  EXPECT_EQ(deliveries(topic.share_poll("q", "A")), (std::vector<Delivery>{{0, 100, 1}}));
}

// SG14: the share options' ranges, checked with the other options.
TEST(SpecShareGroups, SG14OptionsAreChecked) {
  const auto message = [](void (*change)(kgroups::TopicOptions&)) -> std::string {
    kgroups::TopicOptions options;
    change(options);
    try {
      kgroups::Topic topic(1, options);
    } catch (const std::invalid_argument& error) {
      return error.what();
    }
    return "<no error>";
  };
  EXPECT_EQ(message([](kgroups::TopicOptions& o) { o.share_auto_offset_reset = "none"; }),
            R"(Topic: unknown share_auto_offset_reset "none"; choose "latest" or "earliest")");
  EXPECT_EQ(message([](kgroups::TopicOptions& o) { o.record_lock_duration_ms = 0; }),
            "Topic: record_lock_duration_ms must be at least 1, got 0");
  EXPECT_EQ(message([](kgroups::TopicOptions& o) { o.delivery_count_limit = 11; }),
            "Topic: delivery_count_limit must be in 2..10, got 11");
  EXPECT_EQ(message([](kgroups::TopicOptions& o) { o.partition_max_record_locks = 99; }),
            "Topic: partition_max_record_locks must be in 100..10000, got 99");
  EXPECT_EQ(message([](kgroups::TopicOptions& o) { o.delivery_count_limit = 2; }), "<no error>");
}

// SG15: share_poll's errors: a negative max_records, then a member not in the group.
TEST(SpecShareGroups, SG15PollErrors) {
  kgroups::Topic topic(1);
  topic.share_join("q", "A");
  EXPECT_THROW((void)topic.share_poll("q", "A", -1), std::invalid_argument);
  EXPECT_THROW((void)topic.share_poll("q", "B"), std::invalid_argument);
  EXPECT_THROW((void)topic.share_poll("unknown", "A"), std::invalid_argument);
}

}  // namespace
