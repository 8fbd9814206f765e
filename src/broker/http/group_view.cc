// SPDX-License-Identifier: Apache-2.0
#include "broker/http/group_view.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <utility>

namespace kgroups::broker::http {
namespace {

void view_classic(const ClassicGroup& group, GroupView& view, bool with_assignments) {
  view.type = "classic";
  view.state = std::string(group_state_name(group.state()));
  view.protocol_type = group.protocol_type();
  view.protocol = group.protocol_name();
  view.generation = group.generation_id();
  if (!group.leader_id().empty()) view.leader = group.leader_id();
  for (const auto& [id, member] : group.members()) {
    GroupMemberView& out = view.members.emplace_back();
    out.member_id = id;
    out.instance_id = member.group_instance_id;
    out.client_id = member.client_id;
    out.host = member.client_host;
    if (with_assignments && group.protocol_type() == "consumer") {
      out.assignment = consumer_assignment_partitions(member.assignment);
    }
  }
}

void view_consumer(const ConsumerGroupDescription& group, GroupView& view) {
  view.type = "consumer";
  view.state = group.group_state;
  view.protocol_type = "consumer";
  view.protocol = group.assignor_name;
  view.generation = group.group_epoch;
  for (const ConsumerMemberDescription& member : group.members) {
    GroupMemberView& out = view.members.emplace_back();
    out.member_id = member.member_id;
    out.instance_id = member.instance_id;
    out.client_id = member.client_id;
    out.host = member.client_host;
    std::vector<AssignedTopicPartitions>& assignment = out.assignment.emplace();
    for (const NamedTopicPartitions& topic : member.assignment) {
      assignment.push_back({topic.topic_name, topic.partitions});
    }
  }
}

void view_share(const Cluster& cluster, ShareGroupDescription& group, GroupView& view,
                bool detailed) {
  view.type = "share";
  view.state = group.state;
  view.protocol_type = "share";
  view.protocol = "simple";  // the share assignor (Kafka's is "simple" too)
  view.generation = group.group_epoch;
  for (ShareGroupMemberDescription& member : group.members) {
    GroupMemberView& out = view.members.emplace_back();
    out.member_id = member.member_id;
    out.client_id = member.client_id;
    out.host = member.client_host;
    out.records_held = member.records_held;
    if (!detailed) continue;
    std::vector<AssignedTopicPartitions>& assignment = out.assignment.emplace();
    for (TopicPartitions& topic : member.assignment) {
      const StoredTopic* stored = cluster.find_topic(topic.topic_id);
      if (stored == nullptr) continue;  // deleted since it was assigned
      assignment.push_back({stored->name, std::move(topic.partitions)});
    }
  }
  if (detailed) view.share_partitions = std::move(group.partitions);
}

// Fills view.offsets (the first max_rows), offsets_total and lag from the committed offsets
// and the members' assignments. The rows are ordered through views of the names those hold,
// so only the rows listed copy a topic's name.
void add_offsets(Broker& broker, GroupView& view, std::size_t max_rows) {
  using Key = std::pair<std::string_view, std::int32_t>;
  std::map<Key, const CommittedOffset*> partitions;  // nullptr: assigned, nothing committed
  const GroupOffsetFetchResult fetched =
      broker.groups().fetch_offsets({.group_id = view.group_id, .partitions = std::nullopt});
  for (const PartitionOffset& offset : fetched.offsets) {
    if (offset.committed.offset < 0) continue;
    partitions[Key{offset.topic_partition.topic, offset.topic_partition.partition}] =
        &offset.committed;
  }
  for (const GroupMemberView& member : view.members) {
    if (!member.assignment) continue;
    for (const AssignedTopicPartitions& topic : *member.assignment) {
      // Assigned partitions that do not exist (a leader may send any bytes) get no row.
      const std::int32_t existing = broker.cluster().partition_count(topic.topic);
      if (existing == 0) continue;
      for (const std::int32_t partition : topic.partitions) {
        if (partition < 0 || partition >= existing) continue;
        partitions.try_emplace(Key{topic.topic, partition}, nullptr);
      }
    }
  }
  view.offsets_total = partitions.size();
  view.offsets.reserve(std::min(max_rows, partitions.size()));
  for (const auto& [key, committed] : partitions) {
    const auto& [topic, partition] = key;
    const BatchLog* log =
        partition < 0 ? nullptr : broker.cluster().find_partition(topic, partition);
    std::optional<std::int64_t> lag;
    if (log != nullptr) {
      const std::int64_t from = committed != nullptr ? committed->offset : log->log_start_offset();
      lag = std::max<std::int64_t>(0, log->high_watermark() - from);
      view.lag += *lag;
    }
    if (view.offsets.size() >= max_rows) continue;
    GroupPartitionView& out = view.offsets.emplace_back();
    out.topic = std::string(topic);
    out.partition = partition;
    if (committed != nullptr) {
      out.committed = committed->offset;
      out.metadata = committed->metadata;
    }
    if (log == nullptr) continue;
    out.end_offset = log->high_watermark();
    out.lag = lag;
  }
}

// The group's state, protocol and members; with `detailed`, its members' assignments too.
std::optional<GroupView> view_group_state(Broker& broker, std::string_view group_id,
                                          bool detailed) {
  GroupView view;
  view.group_id = std::string(group_id);
  view.coordinator = broker.coordinator_for(group_id);
  if (const ClassicGroup* group = broker.groups().classic().group(group_id)) {
    view_classic(*group, view, detailed);
  } else if (broker.groups().share().has_group(group_id)) {
    ShareGroupDescription description = broker.groups().describe_share_group(group_id);
    if (description.error != GroupError::kNone) return std::nullopt;
    view_share(broker.cluster(), description, view, detailed);
    if (detailed) view.share_settings = broker.groups().share().settings_of(group_id);
  } else {
    ConsumerGroupDescription description = broker.groups().describe_consumer_group(group_id);
    if (description.error != GroupError::kNone) return std::nullopt;
    view_consumer(description, view);
    if (!detailed) {
      for (GroupMemberView& member : view.members) member.assignment.reset();
    }
  }
  return view;
}

}  // namespace

std::optional<GroupView> view_group(Broker& broker, std::string_view group_id,
                                    std::size_t max_offset_rows) {
  std::optional<GroupView> view = view_group_state(broker, group_id, true);
  if (view && view->type != "share") add_offsets(broker, *view, max_offset_rows);
  return view;
}

std::vector<GroupView> view_groups(Broker& broker) {
  std::vector<GroupView> views;
  for (const CoordinatorService::Listing& listing : broker.groups().list_groups()) {
    std::optional<GroupView> view = view_group_state(broker, listing.group.group_id, false);
    if (view) views.push_back(std::move(*view));
  }
  return views;
}

}  // namespace kgroups::broker::http
