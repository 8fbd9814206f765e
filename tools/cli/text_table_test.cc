// SPDX-License-Identifier: Apache-2.0
#include "text_table.h"

#include <gtest/gtest.h>

namespace kgroups::cli {
namespace {

TEST(TextTable, PadsEachColumnToItsWidestCell) {
  TextTable table({"TOPIC", "PARTITION", "LAG"});
  table.add_row({"orders", "0", "12"});
  table.add_row({"a", "10", "-"});
  EXPECT_EQ(table.render(),
            "TOPIC   PARTITION  LAG\n"
            "orders  0          12\n"
            "a       10         -\n");
}

TEST(TextTable, LeavesNoTrailingSpacesWhenTheLastCellsAreEmpty) {
  TextTable table({"A", "B"});
  table.add_row({"x"});
  EXPECT_EQ(table.render(), "A  B\nx\n");
}

TEST(TextTable, CutsARowLongerThanTheHeader) {
  TextTable table({"A"});
  table.add_row({"x", "dropped"});
  EXPECT_EQ(table.render(), "A\nx\n");
}

TEST(TextTable, WithoutRowsPrintsTheHeaderOnly) {
  TextTable table({"GROUP", "STATE"});
  EXPECT_TRUE(table.empty());
  EXPECT_EQ(table.render(), "GROUP  STATE\n");
}

TEST(TextTableCell, ShowsAMissingNumberAsADash) {
  EXPECT_EQ(cell(std::nullopt), "-");
  EXPECT_EQ(cell(0), "0");
  EXPECT_EQ(cell(-1), "-1");
}

}  // namespace
}  // namespace kgroups::cli
