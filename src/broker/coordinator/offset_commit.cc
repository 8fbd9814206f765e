// SPDX-License-Identifier: Apache-2.0
#include "broker/coordinator/offset_commit.h"

#include "broker/coordinator/stored_bytes.h"

namespace kgroups::broker {

std::vector<PartitionOffset> stored_offsets(const OffsetCommitParams& params,
                                            const OffsetCommitResult& result) {
  std::vector<PartitionOffset> stored;
  if (result.error != GroupError::kNone || params.validate_only) return stored;
  for (std::size_t i = 0; i < params.offsets.size() && i < result.partition_errors.size(); ++i) {
    if (result.partition_errors[i] == GroupError::kNone) stored.push_back(params.offsets[i]);
  }
  return stored;
}

OffsetCommitResult refused_offset_commit(const OffsetCommitParams& params, GroupError error) {
  OffsetCommitResult result;
  result.error = error;
  result.partition_errors.assign(params.offsets.size(), error);
  return result;
}

OffsetCommitPlan plan_offset_commit(const OffsetStore* store,
                                    const std::vector<PartitionOffset>& offsets,
                                    std::size_t metadata_max_bytes) {
  OffsetCommitPlan plan;
  plan.partition_errors.reserve(offsets.size());
  for (const PartitionOffset& offset : offsets) {
    if (offset.committed.metadata.size() > metadata_max_bytes) {
      plan.partition_errors.push_back(GroupError::kOffsetMetadataTooLarge);
      continue;
    }
    plan.partition_errors.push_back(GroupError::kNone);
    ++plan.storing;
    plan.growth_bytes +=
        store == nullptr
            ? offset_entry_bytes(offset.topic_partition.topic, offset.committed.metadata)
            : store->growth_bytes(offset.topic_partition, offset.committed);
  }
  return plan;
}

void commit_planned_offsets(OffsetStore& store, const std::vector<PartitionOffset>& offsets,
                            const std::vector<GroupError>& partition_errors) {
  for (std::size_t i = 0; i < offsets.size() && i < partition_errors.size(); ++i) {
    if (partition_errors[i] == GroupError::kNone) {
      store.commit(offsets[i].topic_partition, offsets[i].committed);
    }
  }
}

}  // namespace kgroups::broker
