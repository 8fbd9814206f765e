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
  std::vector<TopicPartition> partitions;
  for (const PartitionMetadata& partition : topic.partitions) {
    partitions.push_back(TopicPartition{name, partition.partition});
  }
  const PartitionOffsets start = client.list_offsets(partitions, OffsetSpec::kEarliest);
  const PartitionOffsets end = client.list_offsets(partitions, OffsetSpec::kLatest);

  if (options.json) {
    nlohmann::ordered_json described = nlohmann::ordered_json::array();
    for (const PartitionMetadata& partition : topic.partitions) {
      const TopicPartition key{name, partition.partition};
      described.push_back({{"partition", partition.partition},
                           {"leader", partition.leader},
                           {"log_start_offset", start.at(key)},
                           {"end_offset", end.at(key)}});
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
    const TopicPartition key{name, partition.partition};
    table.add_row({std::to_string(partition.partition), std::to_string(partition.leader),
                   std::to_string(start.at(key)), std::to_string(end.at(key)),
                   std::to_string(end.at(key) - start.at(key))});
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
