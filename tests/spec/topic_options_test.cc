// SPDX-License-Identifier: Apache-2.0
//
// SPEC.md, "Options": construction with TopicOptions, its choices, the
// invalid-argument error naming the option and listing its choices (checked
// after num_partitions, in the table's order), and defaults that are exactly
// the lab's Topic(n).

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "kgroups/kgroups.h"
#include "reference_keys.h"
#include "topic_state.h"

namespace {

using kgroups_spec::append_to_partition;
using kgroups_spec::compare_whole_state;

// The message of the std::invalid_argument that building the topic throws, or
// "<no error>" / "<other error>".
std::string construction_error(int num_partitions, const kgroups::TopicOptions& options) {
  try {
    kgroups::Topic topic(num_partitions, options);
    return "<no error>";
  } catch (const std::invalid_argument& error) {
    return error.what();
  } catch (...) {
    return "<other error>";
  }
}

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

kgroups::TopicOptions with(std::string partitioner, std::string assignor,
                           std::string auto_offset_reset) {
  kgroups::TopicOptions options;
  options.partitioner = std::move(partitioner);
  options.assignor = std::move(assignor);
  options.auto_offset_reset = std::move(auto_offset_reset);
  return options;
}

TEST(SpecOptions, DefaultsAreTheLabsChoices) {
  const kgroups::TopicOptions defaults;
  EXPECT_EQ(defaults.partitioner, "fnv1a");
  EXPECT_EQ(defaults.assignor, "range");
  EXPECT_EQ(defaults.auto_offset_reset, "earliest");
  EXPECT_EQ(kgroups::kPartitionerChoices.front(), "fnv1a");
  EXPECT_EQ(kgroups::kAssignorChoices.front(), "range");
  EXPECT_EQ(kgroups::kAutoOffsetResetChoices.front(), "earliest");
  EXPECT_EQ(kgroups::Topic(3).options(), defaults);
  EXPECT_EQ(kgroups::Topic(3, defaults).options(), defaults);
}

TEST(SpecOptions, ChoicesAreSpecsTable) {
  EXPECT_EQ(std::vector<std::string_view>(kgroups::kPartitionerChoices.begin(),
                                          kgroups::kPartitionerChoices.end()),
            (std::vector<std::string_view>{"fnv1a", "murmur2"}));
  EXPECT_EQ(std::vector<std::string_view>(kgroups::kAssignorChoices.begin(),
                                          kgroups::kAssignorChoices.end()),
            (std::vector<std::string_view>{"range", "roundrobin", "sticky", "cooperative-sticky"}));
  EXPECT_EQ(std::vector<std::string_view>(kgroups::kAutoOffsetResetChoices.begin(),
                                          kgroups::kAutoOffsetResetChoices.end()),
            (std::vector<std::string_view>{"earliest", "latest", "none"}));
}

TEST(SpecOptions, EveryCombinationOfChoicesBuildsAndIsKept) {
  for (std::string_view partitioner : kgroups::kPartitionerChoices) {
    for (std::string_view assignor : kgroups::kAssignorChoices) {
      for (std::string_view reset : kgroups::kAutoOffsetResetChoices) {
        const kgroups::TopicOptions options =
            with(std::string(partitioner), std::string(assignor), std::string(reset));
        kgroups::Topic topic(4, options);
        EXPECT_EQ(topic.options(), options);
        EXPECT_EQ(topic.num_partitions(), 4);
        for (int p = 0; p < 4; ++p) EXPECT_EQ(topic.end_offset(p), 0);
      }
    }
  }
}

TEST(SpecOptions, UnknownPartitionerNamesTheOptionAndItsChoices) {
  for (const char* bad : {"", "murmur", "Murmur2", "FNV1A", "fnv1a ", "random"}) {
    const std::string message = construction_error(3, with(bad, "range", "earliest"));
    EXPECT_TRUE(contains(message, "partitioner")) << message;
    EXPECT_TRUE(contains(message, "fnv1a")) << message;
    EXPECT_TRUE(contains(message, "murmur2")) << message;
  }
}

TEST(SpecOptions, UnknownAssignorNamesTheOptionAndItsChoices) {
  for (const char* bad : {"", "Range", "round-robin", "round_robin", "cooperative_sticky",
                          "stickyy", "roundrobin "}) {
    const std::string message = construction_error(3, with("fnv1a", bad, "earliest"));
    EXPECT_TRUE(contains(message, "assignor")) << message;
    for (std::string_view choice : kgroups::kAssignorChoices) {
      EXPECT_TRUE(contains(message, choice)) << message << " lacks " << choice;
    }
  }
}

TEST(SpecOptions, UnknownAutoOffsetResetNamesTheOptionAndItsChoices) {
  for (const char* bad : {"", "Earliest", "smallest", "largest", "error", "none "}) {
    const std::string message = construction_error(3, with("fnv1a", "range", bad));
    EXPECT_TRUE(contains(message, "auto_offset_reset")) << message;
    for (std::string_view choice : kgroups::kAutoOffsetResetChoices) {
      EXPECT_TRUE(contains(message, choice)) << message << " lacks " << choice;
    }
  }
}

TEST(SpecOptions, NumPartitionsIsCheckedBeforeTheOptions) {
  for (int n : {0, -1}) {
    const std::string message = construction_error(n, with("x", "y", "z"));
    EXPECT_NE(message, "<no error>");
    EXPECT_NE(message, "<other error>");
    // The error is about num_partitions, not about any option.
    EXPECT_FALSE(contains(message, "murmur2")) << message;
    EXPECT_FALSE(contains(message, "roundrobin")) << message;
    EXPECT_FALSE(contains(message, "latest")) << message;
  }
}

TEST(SpecOptions, OptionsAreCheckedInTheTablesOrder) {
  // partitioner before assignor and auto_offset_reset.
  std::string message = construction_error(3, with("x", "y", "z"));
  EXPECT_TRUE(contains(message, "murmur2")) << message;
  EXPECT_FALSE(contains(message, "roundrobin")) << message;
  EXPECT_FALSE(contains(message, "latest")) << message;
  // assignor before auto_offset_reset.
  message = construction_error(3, with("murmur2", "y", "z"));
  EXPECT_TRUE(contains(message, "roundrobin")) << message;
  EXPECT_FALSE(contains(message, "latest")) << message;
  message = construction_error(3, with("murmur2", "sticky", "z"));
  EXPECT_TRUE(contains(message, "latest")) << message;
}

TEST(SpecOptions, ValueComparisonIsExactNotCaseInsensitive) {
  EXPECT_EQ(construction_error(2, with("murmur2", "cooperative-sticky", "none")), "<no error>");
  EXPECT_NE(construction_error(2, with("MURMUR2", "range", "earliest")), "<no error>");
  EXPECT_NE(construction_error(2, with("fnv1a", "Sticky", "earliest")), "<no error>");
  EXPECT_NE(construction_error(2, with("fnv1a", "range", "Latest")), "<no error>");
  EXPECT_NE(construction_error(2, with(std::string("fnv1a\0", 6), "range", "earliest")),
            "<no error>");
}

// The same operations on Topic(n) and Topic(n, defaults) leave the same
// observable state, step by step.
TEST(SpecOptions, DefaultOptionsBehaveExactlyLikeTheLabsTopic) {
  for (const kgroups::TopicOptions& defaults :
       {kgroups::TopicOptions{}, with("fnv1a", "range", "earliest")}) {
    kgroups::Topic lab(6);
    kgroups::Topic optioned(6, defaults);
    const std::vector<std::string> groups = {"g", "h"};
    const std::vector<std::string> consumers = {"A", "B", "C", "D"};
    for (kgroups::Topic* topic : {&lab, &optioned}) {
      for (int p = 0; p < 6; ++p) append_to_partition(*topic, p, 3 + p);
      topic->append("foobar", "x");
      topic->append("", "y");
      topic->join("g", "C");
      topic->join("g", "A");
      (void)topic->poll("g", "A", 4);
      topic->commit("g", "A");
      topic->join("g", "B");
      topic->join("h", "D");
      (void)topic->poll("g", "B", 2);
      (void)topic->poll("g", "C");
      topic->commit("g", "C");
      topic->leave("g", "A");
      (void)topic->poll("h", "D", 5);
    }
    for (const std::string& group : groups) {
      EXPECT_EQ(optioned.lag(group), lab.lag(group));
      EXPECT_EQ(optioned.rebalances(group), lab.rebalances(group));
    }
    compare_whole_state(optioned, lab, groups, consumers);
  }
}

}  // namespace
