// SPDX-License-Identifier: Apache-2.0
//
// CoordinatorService's side of __consumer_offsets: the observers (the record writer first),
// writing each call's records when it ends, and what loading a partition needs (unloading
// its groups, restoring offsets without writing them again).
#include <chrono>
#include <string>
#include <utility>

#include "broker/groups/coordinator_service.h"

namespace kgroups::broker {
namespace {

// Suppresses the records of what happens while it lives (a load writes nothing back).
class RecordsPaused {
 public:
  explicit RecordsPaused(GroupRecordWriter& records) : records_(records), topic_(records.topic()) {
    records_.set_topic(nullptr);
  }
  ~RecordsPaused() { records_.set_topic(topic_); }
  RecordsPaused(const RecordsPaused&) = delete;
  RecordsPaused& operator=(const RecordsPaused&) = delete;

 private:
  GroupRecordWriter& records_;
  CoordinatorTopic* topic_;
};

}  // namespace

void CoordinatorService::set_observer(GroupObserver* observer) {
  observers_ = GroupObserverList{};
  observers_.add(&records_);
  if (observer != nullptr) observers_.add(observer);
  classic_.set_observer(&observers_);
  consumer_.set_observer(&observers_);
  share_.set_observer(&observers_);
}

void CoordinatorService::finish_call() {
  records_.flush(classic_, consumer_, wall_clock_ms());
  rearm();
}

std::int64_t CoordinatorService::wall_clock_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::vector<TopicPartition> CoordinatorService::committed_partitions(
    std::string_view group_id) const {
  const OffsetStore* store = nullptr;
  if (const ConsumerGroup* group = consumer_.group(group_id); group != nullptr) {
    store = &group->offsets();
  } else if (const ClassicGroup* classic = classic_.group(group_id); classic != nullptr) {
    store = &classic->offsets();
  }
  std::vector<TopicPartition> partitions;
  if (store == nullptr) return partitions;
  for (PartitionOffset& offset : store->fetch_all()) {
    partitions.push_back(std::move(offset.topic_partition));
  }
  return partitions;
}

std::size_t CoordinatorService::unload_partition(std::int32_t partition) {
  const CoordinatorTopic* topic = records_.topic();
  if (topic == nullptr) return 0;
  std::size_t unloaded = 0;
  {
    RecordsPaused paused(records_);
    for (const GroupListing& group : classic_.list_groups()) {
      if (topic->partition_for(group.group_id) != partition) continue;
      if (classic_.unload_group(group.group_id)) ++unloaded;
    }
    for (const GroupListing& group : consumer_.list_groups()) {
      if (topic->partition_for(group.group_id) != partition) continue;
      if (consumer_.unload_group(group.group_id)) ++unloaded;
    }
  }
  finish_call();
  return unloaded;
}

GroupError CoordinatorService::load_classic_group(LoadedClassicGroup group) {
  share_stored_bytes();
  if (consumer_.has_group(group.group_id) || share_.has_group(group.group_id)) {
    return GroupError::kInvalidGroupId;  // another protocol's group holds the id
  }
  const GroupError error = classic_.load_group(std::move(group));
  finish_call();
  return error;
}

GroupError CoordinatorService::load_consumer_group(LoadedConsumerGroup group) {
  share_stored_bytes();
  if (classic_.has_group(group.group_id) || share_.has_group(group.group_id)) {
    return GroupError::kInvalidGroupId;  // another protocol's group holds the id
  }
  const GroupError error = consumer_.load_group(std::move(group));
  finish_call();
  return error;
}

OffsetCommitResult CoordinatorService::restore_offsets(std::string_view group_id,
                                                       std::vector<PartitionOffset> offsets) {
  share_stored_bytes();
  OffsetCommitParams params;
  params.group_id = std::string(group_id);
  params.offsets = std::move(offsets);
  params.unfenced = true;
  OffsetCommitResult result;
  {
    RecordsPaused paused(records_);
    result = consumer_.has_group(group_id) ? consumer_.commit_offsets(params)
                                           : classic_.commit_offsets(params);
  }
  finish_call();
  return result;
}

}  // namespace kgroups::broker
