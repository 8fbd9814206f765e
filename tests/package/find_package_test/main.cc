// SPDX-License-Identifier: Apache-2.0
//
// Uses the installed kgroups through its public header, checks a few results of
// SPEC.md's worked example, and exits non-zero with a message if one is wrong.

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <kgroups/kgroups.h>

namespace {

int failures = 0;

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "find_package_test: FAILED: %s\n", what);
    ++failures;
  }
}

}  // namespace

int main() {
  check(kgroups::fnv1a_32("foobar") == 3214735720U, "fnv1a_32(\"foobar\") == 3214735720");
  check(kgroups::partition_for("a", 6) == static_cast<int>(3826002220U % 6),
        "partition_for(\"a\", 6) == 3826002220 % 6");

  kgroups::Topic topic(6);
  for (const char* id : {"A", "B", "C"}) topic.join("billing", id);
  check(topic.assignment("billing", "A") == std::vector<int>{0, 1}, "A owns [0, 1]");
  check(topic.assignment("billing", "C") == std::vector<int>{4, 5}, "C owns [4, 5]");

  std::int64_t appended_to_a = 0;
  for (int i = 0; i < 10; ++i) {
    const auto [partition, offset] = topic.append("key-" + std::to_string(i), "value");
    if (partition <= 1) ++appended_to_a;
    check(offset + 1 == topic.end_offset(partition), "append returns end_offset - 1");
  }
  const std::vector<kgroups::Record> batch = topic.poll("billing", "A");
  check(static_cast<std::int64_t>(batch.size()) == appended_to_a, "A polls its records");
  topic.commit("billing", "A");
  check(topic.committed("billing", 0) + topic.committed("billing", 1) == appended_to_a,
        "commit stores A's positions");

  topic.leave("billing", "B");
  check(topic.assignment("billing", "A") == std::vector<int>{0, 1, 2}, "A owns [0, 1, 2]");
  bool refused = false;
  try {
    topic.commit("billing", "C", {{2, 0}});
  } catch (const kgroups::NotAssignedError& error) {
    refused = error.partition() == 2;
  }
  check(refused, "C's commit of partition 2 raises NotAssignedError");

  if (failures == 0) std::puts("find_package_test: installed kgroups works");
  return failures == 0 ? 0 : 1;
}
