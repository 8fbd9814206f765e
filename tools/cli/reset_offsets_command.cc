// SPDX-License-Identifier: Apache-2.0
//
// `kgroups groups reset-offsets GROUP --to-earliest|--to-latest|--to-offset N [--topic T]
// [--execute]`: prints the plan, and commits it with --execute. As Kafka's tool does, it
// refuses a group that has members, since they would overwrite the reset at their next commit.
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <stdexcept>

#include "command_options.h"
#include "groups_command.h"
#include "kafka_client/admin_client.h"
#include "offset_reset_plan.h"
#include "text_table.h"
#include "topic_selection.h"

namespace kgroups::cli {
namespace {

struct ResetOptions {
  CommandOptions connection;
  std::string group_id;
  bool to_earliest = false;
  bool to_latest = false;
  std::optional<std::int64_t> to_offset;
  std::vector<std::string> topics;
  bool execute = false;
};

ResetTarget target_of(const ResetOptions& options) {
  if (options.to_latest) return ResetTarget{ResetTarget::Kind::kLatest, 0};
  if (options.to_offset) return ResetTarget{ResetTarget::Kind::kOffset, *options.to_offset};
  return ResetTarget{ResetTarget::Kind::kEarliest, 0};
}

// The partitions to reset: those the --topic selections name, or else every partition the
// group has committed offsets for.
std::vector<TopicPartitionId> chosen_partitions(AdminClient& client, const ResetOptions& options,
                                                const PartitionOffsets& committed) {
  std::vector<TopicPartitionId> partitions;
  if (options.topics.empty()) {
    for (const auto& [partition, offset] : committed) partitions.push_back(partition);
    if (partitions.empty()) {
      throw std::runtime_error("group '" + options.group_id +
                               "' has no committed offsets; name the topics to reset with "
                               "--topic");
    }
    return partitions;
  }
  std::vector<TopicSelection> selections;
  std::set<std::string> names;
  for (const std::string& text : options.topics) {
    selections.push_back(*parse_topic_selection(text));  // checked when parsing the options
    names.insert(selections.back().topic);
  }
  const ClusterMetadata cluster =
      client.metadata(std::vector<std::string>(names.begin(), names.end()));
  std::map<std::string, std::set<std::int32_t>> existing;
  for (const TopicMetadata& topic : cluster.topics) {
    if (topic.error == protocol::ErrorCode::kUnknownTopicOrPartition) {
      throw std::runtime_error("topic '" + topic.name + "' does not exist");
    }
    if (topic.error != protocol::ErrorCode::kNone) {
      throw KafkaClientError("cannot read the metadata of topic '" + topic.name +
                             "': " + describe_error(topic.error));
    }
    for (const PartitionMetadata& partition : topic.partitions) {
      existing[topic.name].insert(partition.partition);
    }
  }
  std::set<TopicPartitionId> chosen;
  for (const TopicSelection& selection : selections) {
    const std::set<std::int32_t>& topic_partitions = existing[selection.topic];
    if (selection.partitions.empty()) {
      for (std::int32_t partition : topic_partitions) {
        chosen.insert(TopicPartitionId{selection.topic, partition});
      }
      continue;
    }
    for (std::int32_t partition : selection.partitions) {
      if (!topic_partitions.contains(partition)) {
        throw std::runtime_error("partition " + std::to_string(partition) + " of topic '" +
                                 selection.topic + "' does not exist (it has " +
                                 std::to_string(topic_partitions.size()) + ")");
      }
      chosen.insert(TopicPartitionId{selection.topic, partition});
    }
  }
  return {chosen.begin(), chosen.end()};
}

int run_reset(const ResetOptions& options, std::ostream& out) {
  AdminClient client(options.connection.bootstrap(), options.connection.deadline());
  const GroupDescription group = client.describe_group(options.group_id);
  if (group.state != "Empty" && group.state != "Dead") {
    throw std::runtime_error("cannot reset the offsets of group '" + options.group_id +
                             "': it has " + std::to_string(group.members.size()) +
                             " active member" + (group.members.size() == 1 ? "" : "s") +
                             " (state " + group.state +
                             "); stop its consumers first, as they would commit over the reset");
  }
  const PartitionOffsets committed = client.committed_offsets(options.group_id);
  const std::vector<TopicPartitionId> partitions = chosen_partitions(client, options, committed);
  const PartitionOffsets earliest = client.list_offsets(partitions, OffsetSpec::kEarliest);
  const PartitionOffsets latest = client.list_offsets(partitions, OffsetSpec::kLatest);
  for (const TopicPartitionId& partition : partitions) {
    if (!earliest.contains(partition) || !latest.contains(partition)) {
      throw std::runtime_error("group '" + options.group_id + "' has an offset for " +
                               partition.topic + "-" + std::to_string(partition.partition) +
                               ", which does not exist; name the topics to reset with --topic");
    }
  }
  const std::vector<PlannedReset> plan =
      plan_offset_reset(partitions, committed, earliest, latest, target_of(options));
  if (options.execute) {
    PartitionOffsets offsets;
    for (const PlannedReset& reset : plan) offsets[reset.partition] = reset.new_offset;
    client.commit_offsets(options.group_id, offsets);
  }

  if (options.connection.json) {
    nlohmann::ordered_json planned = nlohmann::ordered_json::array();
    for (const PlannedReset& reset : plan) {
      planned.push_back(
          {{"topic", reset.partition.topic},
           {"partition", reset.partition.partition},
           {"current_offset", reset.current_offset ? nlohmann::ordered_json(*reset.current_offset)
                                                   : nlohmann::ordered_json(nullptr)},
           {"new_offset", reset.new_offset}});
    }
    out << nlohmann::ordered_json{{"group_id", options.group_id},
                                  {"executed", options.execute},
                                  {"partitions", planned}}
               .dump(2)
        << "\n";
    return 0;
  }
  TextTable table({"GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "NEW-OFFSET"});
  for (const PlannedReset& reset : plan) {
    table.add_row({options.group_id, reset.partition.topic,
                   std::to_string(reset.partition.partition), cell(reset.current_offset),
                   std::to_string(reset.new_offset)});
  }
  out << table.render();
  if (!options.execute) {
    out << "\nDry run: nothing was committed. Add --execute to commit these offsets.\n";
  }
  return 0;
}

}  // namespace

void add_reset_offsets_command(CLI::App& groups, CommandAction& action) {
  auto options = std::make_shared<ResetOptions>();
  CLI::App* reset = groups.add_subcommand(
      "reset-offsets",
      "move a group's committed offsets (a dry run that prints the plan unless --execute); "
      "the group must have no active members");
  reset->add_option("GROUP", options->group_id, "the group id")->required();
  CLI::Option* earliest =
      reset->add_flag("--to-earliest", options->to_earliest, "each partition's log start");
  CLI::Option* latest =
      reset->add_flag("--to-latest", options->to_latest, "each partition's end offset");
  CLI::Option* offset =
      reset
          ->add_option("--to-offset", options->to_offset,
                       "this offset (moved to the nearer end when outside a partition's range)")
          ->check(CLI::NonNegativeNumber);
  earliest->excludes(latest)->excludes(offset);
  latest->excludes(offset);
  reset
      ->add_option("--topic", options->topics,
                   "TOPIC resets every partition of the topic, TOPIC:P,P,... those partitions "
                   "(repeatable); default: every partition the group has committed")
      ->allow_extra_args(false)
      ->check(
          [](const std::string& text) -> std::string {
            return parse_topic_selection(text) ? ""
                                               : "'" + text + "' is not TOPIC or TOPIC:P,P,...";
          },
          "TOPIC[:P,...]");
  reset->add_flag("--execute", options->execute, "commit the plan (default: dry run)");
  add_command_options(*reset, options->connection);
  reset->callback([&action, options] {
    if (!options->to_earliest && !options->to_latest && !options->to_offset) {
      throw CLI::RequiredError("one of --to-earliest, --to-latest or --to-offset");
    }
    action = [options](std::ostream& out) { return run_reset(*options, out); };
  });
}

}  // namespace kgroups::cli
