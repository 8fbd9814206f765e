// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/offset_commit.h"

#include <gtest/gtest.h>

#include "broker/coordinator/stored_bytes.h"

namespace kgroups::broker {
namespace {

std::vector<PartitionOffset> three_offsets() {
  return {{{"orders", 0}, {10, "ok"}},
          {{"orders", 1}, {11, std::string(9, 'm')}},  // over a limit of 8
          {{"payments", 0}, {12, ""}}};
}

TEST(OffsetCommitPlan, RefusesMetadataOverTheLimitAndCountsWhatANewGroupWouldStore) {
  const OffsetCommitPlan plan = plan_offset_commit(nullptr, three_offsets(), 8);
  EXPECT_EQ(plan.partition_errors,
            (std::vector<GroupError>{GroupError::kNone, GroupError::kOffsetMetadataTooLarge,
                                     GroupError::kNone}));
  EXPECT_EQ(plan.storing, 2u);
  EXPECT_EQ(plan.growth_bytes,
            offset_entry_bytes("orders", "ok") + offset_entry_bytes("payments", ""));
}

TEST(OffsetCommitPlan, AnExistingStoreGrowsOnlyByWhatChanges) {
  OffsetStore store;
  store.commit({"orders", 0}, {5, "ok"});
  const OffsetCommitPlan plan = plan_offset_commit(&store, three_offsets(), 8);
  EXPECT_EQ(plan.growth_bytes, offset_entry_bytes("payments", "")) << "orders-0 is replaced";
}

TEST(OffsetCommitPlan, CommitStoresOnlyThePartitionsWithoutAnError) {
  OffsetStore store;
  const std::vector<PartitionOffset> offsets = three_offsets();
  const OffsetCommitPlan plan = plan_offset_commit(&store, offsets, 8);
  commit_planned_offsets(store, offsets, plan.partition_errors);
  EXPECT_EQ(store.fetch({"orders", 0}).offset, 10);
  EXPECT_EQ(store.fetch({"orders", 1}).offset, -1);
  EXPECT_EQ(store.fetch({"payments", 0}).offset, 12);
  EXPECT_EQ(store.stored_bytes(), plan.growth_bytes);
}

TEST(StoredOffsets, AreTheAcceptedOffsetsOfASuccessfulCommitThatStores) {
  OffsetCommitParams params;
  params.offsets = three_offsets();
  OffsetCommitResult result;
  result.partition_errors = plan_offset_commit(nullptr, params.offsets, 8).partition_errors;
  EXPECT_EQ(stored_offsets(params, result).size(), 2u);
  params.validate_only = true;
  EXPECT_TRUE(stored_offsets(params, result).empty());
  params.validate_only = false;
  result.error = GroupError::kIllegalGeneration;
  EXPECT_TRUE(stored_offsets(params, result).empty());
}

TEST(RefusedOffsetCommit, CarriesTheErrorForTheRequestAndEachPartition) {
  OffsetCommitParams params;
  params.offsets = three_offsets();
  const OffsetCommitResult result = refused_offset_commit(params, GroupError::kUnknownMemberId);
  EXPECT_EQ(result.error, GroupError::kUnknownMemberId);
  EXPECT_EQ(result.partition_errors, std::vector<GroupError>(3, GroupError::kUnknownMemberId));
  EXPECT_TRUE(stored_offsets(params, result).empty());
}

}  // namespace
}  // namespace kgroups::broker
