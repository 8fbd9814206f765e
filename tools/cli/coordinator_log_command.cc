// SPDX-License-Identifier: Apache-2.0
#include "offsets_log_command.h"

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>

#include "command_options.h"
#include "kafka_client/admin_client.h"
#include "offsets_log_record.h"
#include "protocol/batch_records.h"
#include "protocol/record_batch.h"

namespace kgroups::cli {
namespace {

constexpr std::string_view kOffsetsTopic = "__consumer_offsets";
constexpr std::int32_t kFetchBytes = 1 << 20;

// Prints the records of `batches` (whole magic-2 batches back to back) from `from` on;
// returns the offset after the last batch read (`from` when there was none).
std::int64_t print_batches(std::span<const std::uint8_t> batches, std::int32_t partition,
                           std::int64_t from, bool json, std::ostream& out) {
  std::int64_t next = from;
  while (batches.size() >= protocol::kBatchLogOverhead) {
    const auto header = protocol::parse_record_batch_header(batches);
    if (!header || header->size_bytes() > batches.size()) break;  // a partial batch at the end
    const std::span<const std::uint8_t> batch = batches.first(header->size_bytes());
    batches = batches.subspan(header->size_bytes());
    next = header->base_offset + header->last_offset_delta + 1;
    if (header->is_control()) continue;
    const auto records = protocol::decode_batch_records(batch);
    if (!records) {
      out << kOffsetsTopic << "-" << partition << " @" << header->base_offset
          << " batch not decoded (" << protocol::error_name(records.error()) << ")\n";
      continue;
    }
    for (const protocol::BatchRecord& record : *records) {
      const std::int64_t offset = header->base_offset + record.offset_delta;
      if (offset < from) continue;
      if (json) {
        nlohmann::ordered_json line = {{"partition", partition}, {"offset", offset}};
        line.update(offsets_record_json(record.key, record.value));
        out << line.dump() << "\n";
      } else {
        out << kOffsetsTopic << "-" << partition << " @" << offset << " "
            << describe_offsets_record(record.key, record.value) << "\n";
      }
    }
  }
  return next;
}

int run_offsets_log(const CommandOptions& options, std::optional<std::int32_t> only,
                    std::ostream& out) {
  AdminClient client(options.bootstrap(), options.deadline());
  const ClusterMetadata cluster =
      client.metadata(std::vector<std::string>{std::string(kOffsetsTopic)});
  if (cluster.topics.empty() || cluster.topics.front().error != protocol::ErrorCode::kNone) {
    throw std::runtime_error(std::string(kOffsetsTopic) +
                             " does not exist yet: no group has been used");
  }
  std::vector<TopicPartitionId> partitions;
  for (const PartitionMetadata& partition : cluster.topics.front().partitions) {
    if (!only || *only == partition.partition) {
      partitions.push_back({std::string(kOffsetsTopic), partition.partition});
    }
  }
  if (partitions.empty())
    throw std::runtime_error("no such partition of " + std::string(kOffsetsTopic));
  const PartitionOffsets start = client.list_offsets(partitions, OffsetSpec::kEarliest);
  const PartitionOffsets end = client.list_offsets(partitions, OffsetSpec::kLatest);
  for (const TopicPartitionId& partition : partitions) {
    const auto first = start.find(partition);
    const auto last = end.find(partition);
    if (first == start.end() || last == end.end()) continue;
    std::int64_t offset = first->second;
    while (offset < last->second) {
      const FetchedPartition fetched = client.fetch(partition, offset, kFetchBytes);
      if (fetched.error != protocol::ErrorCode::kNone) {
        throw KafkaClientError("cannot read " + partition.topic + "-" +
                               std::to_string(partition.partition) + ": " +
                               describe_error(fetched.error));
      }
      const std::int64_t next =
          print_batches(fetched.records, partition.partition, offset, options.json, out);
      if (next <= offset) break;  // nothing more to read before the end
      offset = next;
    }
  }
  return 0;
}

}  // namespace

void add_offsets_log_command(CLI::App& app, CommandAction& action) {
  auto options = std::make_shared<CommandOptions>();
  auto partition = std::make_shared<std::optional<std::int32_t>>();
  CLI::App* command = app.add_subcommand(
      "offsets-log",
      "print the records of __consumer_offsets decoded: offset commits, group metadata and "
      "the consumer-group records, tombstones included");
  command->add_option("--partition", *partition, "read only this partition of the topic");
  add_command_options(*command, *options);
  command->callback([&action, options, partition] {
    action = [options, partition](std::ostream& out) {
      return run_offsets_log(*options, *partition, out);
    };
  });
}

}  // namespace kgroups::cli
