// SPDX-License-Identifier: Apache-2.0
#include "topics_command.h"

#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <stdexcept>

#include "command_options.h"
#include "kafka_client/admin_client.h"
#include "text_table.h"

namespace kgroups::cli {
namespace {

int run_list(const CommandOptions& options, std::ostream& out) {
  AdminClient client(options.bootstrap(), options.deadline());
  const ClusterMetadata cluster = client.metadata(std::nullopt);
  if (options.json) {
    nlohmann::ordered_json topics = nlohmann::ordered_json::array();
    for (const TopicMetadata& topic : cluster.topics) {
      topics.push_back({{"name", topic.name},
                        {"partitions", topic.partitions.size()},
                        {"internal", topic.is_internal}});
    }
    out << nlohmann::ordered_json{{"topics", topics}}.dump(2) << "\n";
    return 0;
  }
  TextTable table({"TOPIC", "PARTITIONS"});
  for (const TopicMetadata& topic : cluster.topics) {
    table.add_row({topic.name, std::to_string(topic.partitions.size())});
  }
  out << table.render();
  return 0;
}

int run_describe(const CommandOptions& options, const std::string& name, std::ostream& out) {
  AdminClient client(options.bootstrap(), options.deadline());
  const ClusterMetadata cluster = client.metadata(std::vector<std::string>{name});
  if (cluster.topics.size() != 1 || cluster.topics.front().name != name) {
    throw KafkaClientError("the broker did not describe topic '" + name + "'");
  }
  const TopicMetadata& topic = cluster.topics.front();
  if (topic.error == protocol::ErrorCode::kUnknownTopicOrPartition) {
    throw std::runtime_error("topic '" + name + "' does not exist");
  }
  if (topic.error != protocol::ErrorCode::kNone) {
    throw KafkaClientError("cannot describe topic '" + name + "': " + describe_error(topic.error));
  }
  std::vector<TopicPartitionId> partitions;
  for (const PartitionMetadata& partition : topic.partitions) {
    partitions.push_back(TopicPartitionId{name, partition.partition});
  }
  const PartitionOffsets start = client.list_offsets(partitions, OffsetSpec::kEarliest);
  const PartitionOffsets end = client.list_offsets(partitions, OffsetSpec::kLatest);
  // A partition deleted between the two calls has no offsets: null, or "-" in the table.
  const auto offset_of = [](const PartitionOffsets& offsets,
                            const TopicPartitionId& key) -> std::optional<std::int64_t> {
    const auto found = offsets.find(key);
    return found == offsets.end() ? std::nullopt : std::optional(found->second);
  };
  const auto json_of = [](const std::optional<std::int64_t>& value) {
    return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
  };

  if (options.json) {
    nlohmann::ordered_json described = nlohmann::ordered_json::array();
    for (const PartitionMetadata& partition : topic.partitions) {
      const TopicPartitionId key{name, partition.partition};
      described.push_back({{"partition", partition.partition},
                           {"leader", partition.leader},
                           {"log_start_offset", json_of(offset_of(start, key))},
                           {"end_offset", json_of(offset_of(end, key))}});
    }
    out << nlohmann::ordered_json{{"name", name},
                                  {"internal", topic.is_internal},
                                  {"partitions", described}}
               .dump(2)
        << "\n";
    return 0;
  }
  out << "Topic " << name << ": " << topic.partitions.size()
      << (topic.partitions.size() == 1 ? " partition" : " partitions") << "\n\n";
  TextTable table({"PARTITION", "LEADER", "LOG-START-OFFSET", "END-OFFSET", "RECORDS"});
  for (const PartitionMetadata& partition : topic.partitions) {
    const TopicPartitionId key{name, partition.partition};
    const std::optional<std::int64_t> first = offset_of(start, key);
    const std::optional<std::int64_t> last = offset_of(end, key);
    std::optional<std::int64_t> records;
    if (first && last) records = *last - *first;
    table.add_row({std::to_string(partition.partition), std::to_string(partition.leader),
                   cell(first), cell(last), cell(records)});
  }
  out << table.render();
  return 0;
}

}  // namespace

void add_topics_command(CLI::App& app, CommandAction& action) {
  CLI::App* topics = app.add_subcommand("topics", "list and describe topics");
  topics->require_subcommand(1);

  auto list_options = std::make_shared<CommandOptions>();
  CLI::App* list = topics->add_subcommand("list", "list every topic and its partition count");
  add_command_options(*list, *list_options);
  list->callback([&action, list_options] {
    action = [list_options](std::ostream& out) { return run_list(*list_options, out); };
  });

  auto describe_options = std::make_shared<CommandOptions>();
  auto name = std::make_shared<std::string>();
  CLI::App* describe = topics->add_subcommand(
      "describe", "show a topic's partitions: leader, log start and end offsets");
  describe->add_option("TOPIC", *name, "the topic name")->required();
  add_command_options(*describe, *describe_options);
  describe->callback([&action, describe_options, name] {
    action = [describe_options, name](std::ostream& out) {
      return run_describe(*describe_options, *name, out);
    };
  });
}

}  // namespace kgroups::cli
