// SPDX-License-Identifier: Apache-2.0
//
// SPEC.md, "A worked example", step by step, with the ten records' partitions
// worked out by the reference FNV-1a of the test.

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kgroups/kgroups.h"
#include "reference_keys.h"
#include "topic_state.h"

namespace {

using kgroups_spec::OwnedRecord;
using kgroups_spec::reference_partition;

TEST(SpecWorkedExample, BillingAndAnalytics) {
  kgroups::Topic t(6);
  t.join("billing", "A");
  t.join("billing", "B");
  t.join("billing", "C");
  EXPECT_EQ(t.assignment("billing", "A"), (std::vector<int>{0, 1}));
  EXPECT_EQ(t.assignment("billing", "B"), (std::vector<int>{2, 3}));
  EXPECT_EQ(t.assignment("billing", "C"), (std::vector<int>{4, 5}));

  // "append 10 records under various keys"
  const std::vector<std::string> keys = {"alice", "bob",   "carol", "dave", "sybil",
                                         "frank", "grace", "heidi", "ivan", "trent"};
  std::vector<std::vector<OwnedRecord>> by_partition(6);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::string value = "invoice-" + std::to_string(i);
    const auto [p, offset] = t.append(keys[i], value);
    ASSERT_EQ(p, reference_partition(keys[i], 6)) << keys[i];
    ASSERT_EQ(offset, static_cast<std::int64_t>(by_partition[p].size())) << keys[i];
    by_partition[p].push_back({p, offset, keys[i], value});
  }
  // The example is only telling if A and partition 2 have records.
  ASSERT_FALSE(by_partition[0].empty() && by_partition[1].empty());
  ASSERT_FALSE(by_partition[2].empty());

  // A's records, partition 0 first, then 1.
  std::vector<OwnedRecord> a_records = by_partition[0];
  a_records.insert(a_records.end(), by_partition[1].begin(), by_partition[1].end());
  EXPECT_EQ(kgroups_spec::own(t.poll("billing", "A")), a_records);

  // committed(billing, 0/1) = A's positions.
  t.commit("billing", "A");
  EXPECT_EQ(t.committed("billing", 0), static_cast<std::int64_t>(by_partition[0].size()));
  EXPECT_EQ(t.committed("billing", 1), static_cast<std::int64_t>(by_partition[1].size()));
  for (int p = 2; p < 6; ++p) EXPECT_EQ(t.committed("billing", p), 0) << "p" << p;

  // B crashes: A [0, 1, 2], C [3, 4, 5].
  t.leave("billing", "B");
  EXPECT_EQ(t.assignment("billing", "A"), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(t.assignment("billing", "B"), (std::vector<int>{}));
  EXPECT_EQ(t.assignment("billing", "C"), (std::vector<int>{3, 4, 5}));

  // Partition 2 from billing's committed offset (0); 0 and 1 were committed to the end.
  EXPECT_EQ(kgroups_spec::own(t.poll("billing", "A")), by_partition[2]);

  // NotAssignedError: 2 belongs to A now.
  try {
    t.commit("billing", "C", {{2, 1}});
    FAIL() << "expected NotAssignedError";
  } catch (const kgroups::NotAssignedError& error) {
    EXPECT_EQ(error.partition(), 2);
  }
  EXPECT_EQ(t.committed("billing", 2), 0);

  // analytics reads everything from offset 0.
  t.join("analytics", "X");
  EXPECT_EQ(t.assignment("analytics", "X"), (std::vector<int>{0, 1, 2, 3, 4, 5}));
  std::vector<OwnedRecord> everything;
  for (const auto& records : by_partition) {
    everything.insert(everything.end(), records.begin(), records.end());
  }
  EXPECT_EQ(kgroups_spec::own(t.poll("analytics", "X")), everything);
  EXPECT_EQ(everything.size(), 10U);
}

}  // namespace
