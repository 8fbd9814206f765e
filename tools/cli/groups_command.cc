// SPDX-License-Identifier: Apache-2.0
#include "groups_command.h"

#include <algorithm>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <stdexcept>

#include "command_options.h"
#include "group_lag.h"
#include "kafka_client/admin_client.h"
#include "text_table.h"

namespace kgroups::cli {
namespace {

nlohmann::ordered_json optional_json(const std::optional<std::int64_t>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

std::string assignment_text(const std::optional<std::vector<AssignedTopic>>& assignment) {
  if (!assignment) return "?";
  std::string text;
  for (const AssignedTopic& topic : *assignment) {
    if (!text.empty()) text += "; ";
    text += topic.topic + ":";
    for (std::size_t i = 0; i < topic.partitions.size(); ++i) {
      text += (i == 0 ? " " : ",") + std::to_string(topic.partitions[i]);
    }
  }
  return text.empty() ? "-" : text;
}

int run_list(const CommandOptions& options, std::ostream& out) {
  AdminClient client(options.bootstrap(), options.deadline());
  const std::vector<ListedGroup> groups = client.list_groups();
  if (options.json) {
    nlohmann::ordered_json listed = nlohmann::ordered_json::array();
    for (const ListedGroup& group : groups) {
      listed.push_back({{"group_id", group.group_id},
                        {"protocol_type", group.protocol_type},
                        {"state", group.state.empty() ? nlohmann::ordered_json(nullptr)
                                                      : nlohmann::ordered_json(group.state)},
                        {"type", group.type.empty() ? nlohmann::ordered_json(nullptr)
                                                    : nlohmann::ordered_json(group.type)}});
    }
    out << nlohmann::ordered_json{{"groups", listed}}.dump(2) << "\n";
    return 0;
  }
  TextTable table({"GROUP", "STATE", "PROTOCOL-TYPE", "TYPE"});
  for (const ListedGroup& group : groups) {
    table.add_row({group.group_id, group.state.empty() ? "-" : group.state,
                   group.protocol_type.empty() ? "-" : group.protocol_type,
                   group.type.empty() ? "-" : group.type});
  }
  out << table.render();
  return 0;
}

// A share group (KIP-932): its members and assignment, and per share-partition the start
// offset (the first record not finished with), the end offset and the records between.
int run_describe_share(const CommandOptions& options, AdminClient& client,
                       const std::string& group_id, std::ostream& out) {
  const DescribedShareGroup group = client.describe_share_group(group_id);
  const std::map<TopicPartitionId, ShareStartOffset> starts = client.share_start_offsets(group_id);
  std::vector<TopicPartitionId> partitions;
  for (const auto& [partition, start] : starts) partitions.push_back(partition);
  const PartitionOffsets end_offsets = client.list_offsets(partitions, OffsetSpec::kLatest);
  struct Row {
    TopicPartitionId partition;
    std::optional<std::int64_t> start_offset;
    std::optional<std::int64_t> end_offset;
    std::optional<std::int64_t> lag;
  };
  std::vector<Row> rows;
  for (const auto& [partition, start] : starts) {
    Row& row = rows.emplace_back();
    row.partition = partition;
    if (start.start_offset >= 0) row.start_offset = start.start_offset;
    const auto end = end_offsets.find(partition);
    if (end != end_offsets.end()) row.end_offset = end->second;
    if (start.lag >= 0) {
      row.lag = start.lag;
    } else if (row.start_offset && row.end_offset) {
      row.lag = std::max<std::int64_t>(0, *row.end_offset - *row.start_offset);
    }
  }
  if (options.json) {
    nlohmann::ordered_json members = nlohmann::ordered_json::array();
    for (const DescribedShareMember& member : group.members) {
      nlohmann::ordered_json assignment = nlohmann::ordered_json::array();
      for (const AssignedTopic& topic : member.assignment) {
        assignment.push_back({{"topic", topic.topic}, {"partitions", topic.partitions}});
      }
      members.push_back({{"member_id", member.member_id},
                         {"member_epoch", member.member_epoch},
                         {"client_id", member.client_id},
                         {"host", member.host},
                         {"assignment", assignment}});
    }
    nlohmann::ordered_json listed = nlohmann::ordered_json::array();
    for (const Row& row : rows) {
      listed.push_back({{"topic", row.partition.topic},
                        {"partition", row.partition.partition},
                        {"start_offset", optional_json(row.start_offset)},
                        {"end_offset", optional_json(row.end_offset)},
                        {"lag", optional_json(row.lag)}});
    }
    out << nlohmann::ordered_json{{"group_id", group_id},       {"type", "share"},
                                  {"state", group.state},       {"protocol_type", "share"},
                                  {"protocol", group.assignor}, {"group_epoch", group.group_epoch},
                                  {"members", members},         {"partitions", listed}}
               .dump(2)
        << "\n";
    return 0;
  }
  out << "Share group " << group_id << ": state " << group.state << ", assignor "
      << (group.assignor.empty() ? "-" : group.assignor) << ", group epoch " << group.group_epoch
      << ", " << group.members.size() << (group.members.size() == 1 ? " member" : " members")
      << "\n\n";
  TextTable table({"TOPIC", "PARTITION", "START-OFFSET", "END-OFFSET", "LAG"});
  for (const Row& row : rows) {
    table.add_row({row.partition.topic, std::to_string(row.partition.partition),
                   cell(row.start_offset), cell(row.end_offset), cell(row.lag)});
  }
  out << table.render();
  if (!group.members.empty()) {
    TextTable members({"MEMBER-ID", "CLIENT-ID", "HOST", "ASSIGNMENT"});
    for (const DescribedShareMember& member : group.members) {
      members.add_row(
          {member.member_id, member.client_id, member.host, assignment_text(member.assignment)});
    }
    out << "\n" << members.render();
  }
  out << "\n(records in flight per state: GET /v1/groups/" << group_id
      << " on kgroupsd's --http address)\n";
  return 0;
}

int run_describe(const CommandOptions& options, const std::string& group_id, std::ostream& out) {
  AdminClient client(options.bootstrap(), options.deadline());
  const GroupDescription group = client.describe_group(group_id);
  if (group.protocol_type == "share") return run_describe_share(options, client, group_id, out);
  const PartitionOffsets committed = client.committed_offsets(group_id);
  if (group.state == "Dead" && group.members.empty() && committed.empty()) {
    throw std::runtime_error("group '" + group_id + "' does not exist (its coordinator, " +
                             std::string("asked through ") + options.bootstrap_server +
                             ", knows no members or committed offsets for it)");
  }
  const PartitionOffsets end_offsets =
      client.list_offsets(group_partitions(group, committed), OffsetSpec::kLatest);
  const std::vector<GroupLagRow> rows = group_lag_rows(group, committed, end_offsets);
  std::int64_t total_lag = 0;
  for (const GroupLagRow& row : rows) total_lag += row.lag.value_or(0);

  if (options.json) {
    nlohmann::ordered_json members = nlohmann::ordered_json::array();
    for (const GroupMemberDescription& member : group.members) {
      nlohmann::ordered_json assignment = nullptr;
      if (member.assignment) {
        assignment = nlohmann::ordered_json::array();
        for (const AssignedTopic& topic : *member.assignment) {
          assignment.push_back({{"topic", topic.topic}, {"partitions", topic.partitions}});
        }
      }
      members.push_back(
          {{"member_id", member.member_id},
           {"group_instance_id", member.group_instance_id
                                     ? nlohmann::ordered_json(*member.group_instance_id)
                                     : nlohmann::ordered_json(nullptr)},
           {"client_id", member.client_id},
           {"host", member.host},
           {"assignment", assignment}});
    }
    nlohmann::ordered_json partitions = nlohmann::ordered_json::array();
    for (const GroupLagRow& row : rows) {
      partitions.push_back(
          {{"topic", row.partition.topic},
           {"partition", row.partition.partition},
           {"committed_offset", optional_json(row.committed_offset)},
           {"end_offset", optional_json(row.end_offset)},
           {"lag", optional_json(row.lag)},
           {"member_id", row.member_id.empty() ? nlohmann::ordered_json(nullptr)
                                               : nlohmann::ordered_json(row.member_id)}});
    }
    out << nlohmann::ordered_json{{"group_id", group_id},
                                  {"state", group.state},
                                  {"protocol_type", group.protocol_type},
                                  {"protocol", group.protocol},
                                  {"members", members},
                                  {"partitions", partitions},
                                  {"total_lag", total_lag}}
               .dump(2)
        << "\n";
    return 0;
  }

  out << "Group " << group_id << ": state " << group.state;
  if (!group.protocol_type.empty()) {
    out << ", protocol " << group.protocol_type;
    if (!group.protocol.empty()) out << "/" << group.protocol;
  }
  out << ", " << group.members.size() << (group.members.size() == 1 ? " member" : " members")
      << ", total lag " << total_lag << "\n\n";
  TextTable partitions({"TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG",
                        "CONSUMER-ID", "HOST", "CLIENT-ID"});
  for (const GroupLagRow& row : rows) {
    partitions.add_row(
        {row.partition.topic, std::to_string(row.partition.partition), cell(row.committed_offset),
         cell(row.end_offset), cell(row.lag), row.member_id.empty() ? "-" : row.member_id,
         row.host.empty() ? "-" : row.host, row.client_id.empty() ? "-" : row.client_id});
  }
  out << partitions.render();
  if (!group.members.empty()) {
    TextTable members({"MEMBER-ID", "INSTANCE-ID", "CLIENT-ID", "HOST", "ASSIGNMENT"});
    for (const GroupMemberDescription& member : group.members) {
      members.add_row({member.member_id, member.group_instance_id.value_or("-"), member.client_id,
                       member.host, assignment_text(member.assignment)});
    }
    out << "\n" << members.render();
  }
  return 0;
}

}  // namespace

void add_groups_command(CLI::App& app, CommandAction& action) {
  CLI::App* groups =
      app.add_subcommand("groups",
                         "list, describe and reset consumer groups; list and describe "
                         "share groups");
  groups->require_subcommand(1);

  auto list_options = std::make_shared<CommandOptions>();
  CLI::App* list = groups->add_subcommand("list", "list every group of every broker");
  add_command_options(*list, *list_options);
  list->callback([&action, list_options] {
    action = [list_options](std::ostream& out) { return run_list(*list_options, out); };
  });

  auto describe_options = std::make_shared<CommandOptions>();
  auto group_id = std::make_shared<std::string>();
  CLI::App* describe = groups->add_subcommand(
      "describe",
      "show a group's members and assignment, and per partition the committed offset, the "
      "end offset and the lag (a share group's: the start offset, the end offset and the "
      "records between)");
  describe->add_option("GROUP", *group_id, "the group id")->required();
  add_command_options(*describe, *describe_options);
  describe->callback([&action, describe_options, group_id] {
    action = [describe_options, group_id](std::ostream& out) {
      return run_describe(*describe_options, *group_id, out);
    };
  });

  add_reset_offsets_command(*groups, action);
}

}  // namespace kgroups::cli
