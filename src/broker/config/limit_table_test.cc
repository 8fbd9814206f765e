// SPDX-License-Identifier: Apache-2.0
#include "broker/config/limit_table.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace kgroups::broker {
namespace {

TEST(LimitTable, EveryFlagIsListedOnceAndItsDefaultIsInItsRange) {
  const BrokerConfig defaults;
  std::set<std::string_view> flags;
  for (const LimitEntry& limit : limit_table()) {
    EXPECT_TRUE(flags.insert(limit.flag).second) << limit.flag << " is listed twice";
    EXPECT_TRUE(limit.flag.starts_with("--")) << limit.flag;
    const std::int64_t value = std::visit(
        [&](auto member) { return static_cast<std::int64_t>(defaults.*member); }, limit.field);
    EXPECT_GE(value, limit.min_value) << limit.flag;
    EXPECT_LE(value, limit.max_value) << limit.flag;
    EXPECT_FALSE(limit.bounds.empty()) << limit.flag;
    EXPECT_FALSE(limit.kafka.empty()) << limit.flag;
  }
}

TEST(LimitTable, DocsLimitsMdHoldsTheGeneratedTable) {
  std::ifstream file(std::string(KGROUPS_SOURCE_DIR) + "/docs/LIMITS.md");
  ASSERT_TRUE(file) << "docs/LIMITS.md is missing";
  std::stringstream contents;
  contents << file.rdbuf();
  EXPECT_NE(contents.str().find(limit_table_markdown()), std::string::npos)
      << "docs/LIMITS.md is out of date; regenerate its table with "
         "`kgroupsd --print-limits-table`:\n"
      << limit_table_markdown();
}

}  // namespace
}  // namespace kgroups::broker
