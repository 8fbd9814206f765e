// SPDX-License-Identifier: Apache-2.0
#include "coordinator_log_command.h"

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>

#include "command_options.h"
#include "coordinator_log_record.h"
#include "kafka_client/admin_client.h"
#include "protocol/batch_records.h"
#include "protocol/record_batch.h"

namespace kgroups::cli {
namespace {

constexpr std::int32_t kFetchBytes = 1 << 20;

// What differs between the coordinators' logs: the topic, how a record reads, what to say
// when the topic does not exist yet.
struct CoordinatorLog {
  std::string_view topic;
  nlohmann::ordered_json (*record_json)(std::optional<protocol::ByteView>,
                                        std::optional<protocol::ByteView>);
  std::string (*describe)(std::optional<protocol::ByteView>, std::optional<protocol::ByteView>);
  std::string_view not_used_yet;
};

constexpr CoordinatorLog kOffsetsLog{"__consumer_offsets", offsets_record_json,
                                     describe_offsets_record, "no group has been used"};
constexpr CoordinatorLog kTransactionsLog{"__transaction_state", transactions_record_json,
                                          describe_transactions_record,
                                          "no transactional id has been used"};

// Prints the records of `batches` (whole magic-2 batches back to back) from `from` on;
// returns the offset after the last batch read (`from` when there was none).
std::int64_t print_batches(const CoordinatorLog& log, std::span<const std::uint8_t> batches,
                           std::int32_t partition, std::int64_t from, bool json,
                           std::ostream& out) {
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
      out << log.topic << "-" << partition << " @" << header->base_offset << " batch not decoded ("
          << protocol::error_name(records.error()) << ")\n";
      continue;
    }
    for (const protocol::BatchRecord& record : *records) {
      const std::int64_t offset = header->base_offset + record.offset_delta;
      if (offset < from) continue;
      if (json) {
        nlohmann::ordered_json line = {{"partition", partition}, {"offset", offset}};
        line.update(log.record_json(record.key, record.value));
        out << line.dump() << "\n";
      } else {
        out << log.topic << "-" << partition << " @" << offset << " "
            << log.describe(record.key, record.value) << "\n";
      }
    }
  }
  return next;
}

int run_log(const CoordinatorLog& log, const CommandOptions& options,
            std::optional<std::int32_t> only, std::ostream& out) {
  const std::string topic(log.topic);
  AdminClient client(options.bootstrap(), options.deadline());
  const ClusterMetadata cluster = client.metadata(std::vector<std::string>{topic});
  if (cluster.topics.empty() || cluster.topics.front().error != protocol::ErrorCode::kNone) {
    throw std::runtime_error(topic + " does not exist yet: " + std::string(log.not_used_yet));
  }
  std::vector<TopicPartitionId> partitions;
  for (const PartitionMetadata& partition : cluster.topics.front().partitions) {
    if (!only || *only == partition.partition) {
      partitions.push_back({topic, partition.partition});
    }
  }
  if (partitions.empty()) throw std::runtime_error("no such partition of " + topic);
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
          print_batches(log, fetched.records, partition.partition, offset, options.json, out);
      if (next <= offset) break;  // nothing more to read before the end
      offset = next;
    }
  }
  return 0;
}

void add_log_command(CLI::App& app, CommandAction& action, const CoordinatorLog& log,
                     const std::string& name, const std::string& description) {
  auto options = std::make_shared<CommandOptions>();
  auto partition = std::make_shared<std::optional<std::int32_t>>();
  CLI::App* command = app.add_subcommand(name, description);
  command->add_option("--partition", *partition, "read only this partition of the topic");
  add_command_options(*command, *options);
  command->callback([&action, &log, options, partition] {
    action = [&log, options, partition](std::ostream& out) {
      return run_log(log, *options, *partition, out);
    };
  });
}

}  // namespace

void add_offsets_log_command(CLI::App& app, CommandAction& action) {
  add_log_command(app, action, kOffsetsLog, "offsets-log",
                  "print the records of __consumer_offsets decoded: offset commits, group "
                  "metadata and the consumer-group records, tombstones included");
}

void add_transactions_log_command(CLI::App& app, CommandAction& action) {
  add_log_command(app, action, kTransactionsLog, "transactions-log",
                  "print the records of __transaction_state decoded: each transactional id's "
                  "producer id and epoch, state and partitions as its coordinator wrote them, "
                  "tombstones included");
}

}  // namespace kgroups::cli
