// SPDX-License-Identifier: Apache-2.0
#include "broker/storage/log_directory.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "broker/config/memory_plan.h"
#include "broker/config/topic_config_catalog.h"
#include "broker/log_format/checkpoint_files.h"
#include "broker/log_format/segment_file_name.h"
#include "broker/log_format/segment_scan.h"
#include "broker/runtime/logger.h"
#include "broker/storage/batch_log.h"
#include "broker/storage/cluster.h"
#include "broker/storage/file_segment_bytes.h"
#include "broker/storage/producer_registry.h"
#include "protocol/batch_records.h"
#include "protocol/record_batch.h"

namespace kgroups::broker {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kMetaProperties = "meta.properties";
constexpr std::string_view kTopicsFile = "kgroups-metadata.json";
constexpr std::string_view kProducerIdsFile = "kgroups-producer-ids.json";
constexpr std::string_view kRecoveryPoints = "recovery-point-offset-checkpoint";
constexpr std::string_view kLogStarts = "log-start-offset-checkpoint";
constexpr std::string_view kLeaderEpochs = "leader-epoch-checkpoint";
constexpr std::string_view kPartitionMetadata = "partition.metadata";

std::int64_t file_time_ms(const fs::path& file) {
  std::error_code error;
  const auto time = fs::last_write_time(file, error);
  if (error) return 0;
  const auto system = std::chrono::file_clock::to_sys(time);
  return std::chrono::duration_cast<std::chrono::milliseconds>(system.time_since_epoch()).count();
}

// The partition's offset in a checkpoint's entries, or `fallback`.
using OffsetMap = std::map<std::pair<std::string, std::int32_t>, std::int64_t>;

OffsetMap read_offset_checkpoint(const fs::path& file) {
  OffsetMap offsets;
  const auto text = read_small_file(file);
  if (!text) return offsets;
  std::string error;
  const auto entries = parse_offset_checkpoint(*text, error);
  if (!entries) {
    log_warn("ignoring " + file.string() + ": " + error + " (every segment is checked instead)");
    return offsets;
  }
  for (const TopicPartitionOffset& entry : *entries) {
    offsets[{entry.topic, entry.partition}] = entry.offset;
  }
  return offsets;
}

// Whether the control batch `batch` is a commit marker (its key's type is 1).
bool is_commit_marker(std::span<const std::uint8_t> batch) {
  const auto records = protocol::decode_batch_records(batch);
  if (!records || records->empty() || !(*records)[0].key || (*records)[0].key->size() < 4) {
    return false;
  }
  const auto& key = *(*records)[0].key;
  return ((key[2] << 8) | key[3]) == 1;
}

// Rebuilds the partition's producer state and transaction index from its batches, and
// registers the producers they name.
void replay_producers(BatchLog& log, ProducerRegistry& producers, std::set<std::int64_t>& seen) {
  for (const StoredBatch& stored : log.batches_from(log.log_start_offset())) {
    const auto header = protocol::parse_record_batch_header(stored.bytes());
    if (!header || header->producer_id < 0) continue;
    const std::int64_t id = header->producer_id;
    seen.insert(id);
    if (header->is_control()) {
      log.transactions().on_marker(id, stored.base_offset, is_commit_marker(stored.bytes()));
      continue;
    }
    if (header->is_transactional()) {
      producers.adopt_transactional(id, header->producer_epoch);
      log.transactions().on_transactional_append(id, stored.base_offset);
    } else {
      producers.adopt_idempotent(id, header->producer_epoch);
    }
    if (header->base_sequence < 0) continue;
    if (log.producers().record(
            id, header->producer_epoch, header->base_sequence,
            ProducerStateTable::last_sequence(header->base_sequence, header->record_count),
            stored.base_offset)) {
      producers.added_partition_state(id, log.producers());
    }
  }
}

void remove_segment_files(const fs::path& folder, std::int64_t base) {
  for (const std::string_view suffix : {".log", ".index", ".timeindex"}) {
    std::error_code ignored;
    fs::remove(folder / segment_file_name(base, suffix), ignored);
  }
}

}  // namespace

std::string RecoveryReport::describe() const {
  std::string text = "log directory: " + std::to_string(topics) + " topic(s), " +
                     std::to_string(partitions) + " partition(s), " + std::to_string(segments) +
                     " segment(s), " + std::to_string(batches) + " batch(es), " +
                     format_bytes(bytes) + " recovered in " +
                     std::to_string(static_cast<std::int64_t>(milliseconds)) + " ms (" +
                     format_bytes(bytes_checked) + " checked beyond the recovery points";
  if (truncations > 0) {
    text += ", " + std::to_string(truncations) + " torn or corrupt tail(s) cut, " +
            format_bytes(bytes_cut);
  }
  if (indexes_rebuilt > 0) text += ", " + std::to_string(indexes_rebuilt) + " index(es) rebuilt";
  if (swaps_completed > 0) {
    text += ", " + std::to_string(swaps_completed) + " cleaned segment(s) swapped in";
  }
  return text + ")";
}

LogDirectory::LogDirectory(LogDirectoryOptions options) : options_(std::move(options)) {
  const fs::path& path = options_.path;
  std::error_code error;
  fs::create_directories(path, error);
  if (error || !fs::is_directory(path)) {
    throw std::runtime_error("--log-dirs " + path.string() + ": cannot use it as a folder (" +
                             (error ? error.message() : "not a folder") + ")");
  }
  const fs::path lock = path / ".lock";
  lock_fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock_fd_ < 0) {
    throw std::runtime_error("--log-dirs " + path.string() + ": cannot write in it (" +
                             std::strerror(errno) + ")");
  }
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(lock_fd_);
    throw std::runtime_error("--log-dirs " + path.string() +
                             " is in use by another running broker (it holds " + lock.string() +
                             "): stop it, or give this one another folder");
  }
  const fs::path meta = path / kMetaProperties;
  const auto text = read_small_file(meta);
  if (text) {
    std::string parse_error;
    const auto properties = parse_properties(*text, parse_error);
    if (!properties) {
      throw std::runtime_error(meta.string() + " is not readable: " + parse_error +
                               " (fix or remove it; the logs next to it are kept)");
    }
    for (const auto& [key, value] : *properties) {
      if (key == "cluster.id" && value != options_.cluster_id) {
        log_warn(meta.string() + " names cluster '" + value + "', this broker is '" +
                 options_.cluster_id + "': its logs are used anyway");
      }
    }
    written_[std::string(kMetaProperties)] = *text;
    return;
  }
  const std::vector<std::pair<std::string, std::string>> properties{
      {"cluster.id", options_.cluster_id},
      {"node.id", std::to_string(options_.node_id)},
      {"version", "1"}};
  write_if_changed(std::string(kMetaProperties),
                   format_properties(properties, "written by kgroupsd"));
}

LogDirectory::~LogDirectory() {
  if (lock_fd_ >= 0) ::close(lock_fd_);
}

void LogDirectory::write_if_changed(const std::string& file, const std::string& contents) {
  auto found = written_.find(file);
  if (found != written_.end() && found->second == contents) return;
  write_file_atomically(options_.path / file, contents);
  written_[file] = contents;
}

void LogDirectory::add_partitions(StoredTopic& topic, std::size_t first) {
  const std::string metadata = format_partition_metadata(topic.id);
  for (std::size_t p = first; p < topic.partitions.size(); ++p) {
    const fs::path folder =
        options_.path / partition_directory_name(topic.name, static_cast<std::int32_t>(p));
    fs::create_directories(folder);
    const fs::path metadata_file = folder / kPartitionMetadata;
    if (read_small_file(metadata_file) != metadata) {
      write_file_atomically(metadata_file, metadata);
    }
    BatchLog& log = topic.partitions[p];
    if (log.files() == nullptr) log.attach_files(std::make_shared<PartitionFiles>(folder));
  }
  topics_dirty_ = true;
}

void LogDirectory::remove_topic(const StoredTopic& topic) {
  std::erase_if(marked_, [&topic](const BatchLog* log) {
    return std::any_of(topic.partitions.begin(), topic.partitions.end(),
                       [log](const BatchLog& partition) { return &partition == log; });
  });
  for (std::size_t p = 0; p < topic.partitions.size(); ++p) {
    std::error_code error;
    fs::remove_all(
        options_.path / partition_directory_name(topic.name, static_cast<std::int32_t>(p)), error);
    if (error) log_warn("cannot delete the folder of " + topic.name + ": " + error.message());
  }
  topics_dirty_ = true;
}

void LogDirectory::save_topics(const Cluster& cluster) {
  if (!topics_dirty_) return;
  nlohmann::ordered_json topics = nlohmann::ordered_json::array();
  for (const auto& [name, topic] : cluster.topics()) {
    nlohmann::ordered_json replicas = nlohmann::ordered_json::array();
    for (const BatchLog& log : topic->partitions)
      replicas.push_back(log.replicas().replica_nodes());
    topics.push_back({{"name", name},
                      {"id", format_uuid(topic->id)},
                      {"partitions", topic->partitions.size()},
                      {"internal", topic->internal},
                      {"configs", topic->set_configs},
                      {"replicas", std::move(replicas)}});
  }
  const nlohmann::ordered_json document{{"version", 1}, {"topics", std::move(topics)}};
  try {
    write_if_changed(std::string(kTopicsFile), document.dump(1) + "\n");
    topics_dirty_ = false;
  } catch (const std::system_error& e) {
    log_error(std::string("cannot save the topics: ") + e.what());
  }
}

bool LogDirectory::save_producer_id_block(std::int64_t block_start, std::int64_t block_end) {
  // As ZooKeeper-era Kafka's /latest_producer_id_block: block_end is the last id of the block.
  const nlohmann::ordered_json document{{"version", 1},
                                        {"broker", options_.node_id},
                                        {"block_start", block_start},
                                        {"block_end", block_end - 1}};
  try {
    write_file_atomically(options_.path / kProducerIdsFile, document.dump() + "\n");
    return true;
  } catch (const std::system_error& e) {
    log_error(std::string("cannot save the next block of producer ids (InitProducerId answers "
                          "COORDINATOR_LOAD_IN_PROGRESS until it can): ") +
              e.what());
    return false;
  }
}

std::int64_t LogDirectory::saved_producer_id_block_end() const {
  const auto text = read_small_file(options_.path / kProducerIdsFile);
  if (!text) return 0;
  try {
    return nlohmann::json::parse(*text).at("block_end").get<std::int64_t>() + 1;
  } catch (const nlohmann::json::exception& e) {
    // A torn write is impossible (it is renamed into place); a file edited by hand is not.
    throw std::runtime_error(std::string(kProducerIdsFile) + " is not readable (" + e.what() +
                             "); without it producer ids could be issued twice: restore it "
                             "or delete it if no producer wrote since the last start");
  }
}

void LogDirectory::after_append(BatchLog& log, const TopicConfig& config, std::int64_t records,
                                std::int64_t now_ms) {
  PartitionFiles* files = log.files();
  if (files == nullptr) return;
  PartitionFiles::FlushState& state = files->flush_state();
  state.unflushed_records += records;
  if (state.first_unflushed_ms < 0) state.first_unflushed_ms = now_ms;
  if (state.unflushed_records < config.flush_messages || state.flush_requested) return;
  if (!on_flush_requested_) {
    log.flush();
    return;
  }
  state.flush_requested = true;
  marked_.push_back(&log);
  on_flush_requested_();
}

std::size_t LogDirectory::flush_requested() {
  std::size_t flushed = 0;
  for (BatchLog* log : marked_) {
    if (!awaits_flush(*log)) continue;  // flushed meanwhile (flush.ms, a clean stop)
    log->flush();
    ++flushed;
  }
  marked_.clear();
  return flushed;
}

bool LogDirectory::awaits_flush(const BatchLog& log) {
  const PartitionFiles* files = log.files();
  return files != nullptr && files->flush_state().flush_requested;
}

std::size_t LogDirectory::flush_due(const Cluster& cluster, std::int64_t now_ms) {
  std::size_t flushed = 0;
  for (const auto& [name, topic] : cluster.topics()) {
    for (BatchLog& log : topic->partitions) {
      const PartitionFiles* files = log.files();
      if (files == nullptr || files->flush_state().first_unflushed_ms < 0) continue;
      if (now_ms - files->flush_state().first_unflushed_ms < topic->config.flush_ms) continue;
      log.flush();
      ++flushed;
    }
  }
  save_topics(cluster);
  return flushed;
}

void LogDirectory::write_checkpoints(const Cluster& cluster) {
  std::vector<TopicPartitionOffset> recovery_points;
  std::vector<TopicPartitionOffset> log_starts;
  for (const auto& [name, topic] : cluster.topics()) {
    for (std::size_t p = 0; p < topic->partitions.size(); ++p) {
      const BatchLog& log = topic->partitions[p];
      const PartitionFiles* files = log.files();
      if (files == nullptr) continue;
      const auto partition = static_cast<std::int32_t>(p);
      recovery_points.push_back({name, partition, files->flush_state().recovery_point});
      log_starts.push_back({name, partition, log.log_start_offset()});
      std::vector<EpochStart> epochs;
      for (const LeaderEpochStart& epoch : log.replicas().epochs()) {
        epochs.push_back({epoch.epoch, epoch.start_offset});
      }
      const std::string epochs_file =
          partition_directory_name(name, partition) + "/" + std::string(kLeaderEpochs);
      try {
        write_if_changed(epochs_file, format_leader_epoch_checkpoint(epochs));
      } catch (const std::system_error& e) {
        log_error(std::string("cannot write a leader-epoch-checkpoint: ") + e.what());
      }
    }
  }
  try {
    write_if_changed(std::string(kRecoveryPoints), format_offset_checkpoint(recovery_points));
    write_if_changed(std::string(kLogStarts), format_offset_checkpoint(log_starts));
  } catch (const std::system_error& e) {
    log_error(std::string("cannot write the checkpoints: ") + e.what());
  }
}

void LogDirectory::close(Cluster& cluster) {
  for (const auto& [name, topic] : cluster.topics()) {
    for (BatchLog& log : topic->partitions) {
      log.flush();
      log.close_active_segment();
    }
  }
  topics_dirty_ = true;
  save_topics(cluster);
  write_checkpoints(cluster);
}

RecoveryReport LogDirectory::restore(Cluster& cluster, ProducerRegistry& producers) {
  const auto started = std::chrono::steady_clock::now();
  RecoveryReport report;
  const OffsetMap recovery_points = read_offset_checkpoint(options_.path / kRecoveryPoints);
  const OffsetMap log_starts = read_offset_checkpoint(options_.path / kLogStarts);
  for (const std::string_view file : {kRecoveryPoints, kLogStarts}) {
    if (const auto text = read_small_file(options_.path / file))
      written_[std::string(file)] = *text;
  }
  // The partition folders on disk, by topic.
  std::map<std::string, std::map<std::int32_t, fs::path>, std::less<>> folders;
  for (const fs::directory_entry& entry : fs::directory_iterator(options_.path)) {
    if (!entry.is_directory()) continue;
    const auto name = parse_partition_directory_name(entry.path().filename().string());
    if (name) folders[name->topic][name->partition] = entry.path();
  }
  struct TopicRecord {
    protocol::Uuid id{};
    std::int32_t partitions = 0;
    bool internal = false;
    TopicConfigValues configs;
    ReplicaAssignment replicas;
  };
  std::map<std::string, TopicRecord, std::less<>> records;
  if (const auto text = read_small_file(options_.path / kTopicsFile)) {
    try {
      const nlohmann::json document = nlohmann::json::parse(*text);
      for (const nlohmann::json& topic : document.at("topics")) {
        TopicRecord record;
        const auto id = parse_uuid(topic.at("id").get<std::string>());
        if (id) record.id = *id;
        record.partitions = topic.at("partitions").get<std::int32_t>();
        record.internal = topic.value("internal", false);
        for (const auto& [key, value] : topic.at("configs").items()) {
          record.configs.emplace(key, value.get<std::string>());
        }
        record.replicas = topic.value("replicas", ReplicaAssignment{});
        records.emplace(topic.at("name").get<std::string>(), std::move(record));
      }
      written_[std::string(kTopicsFile)] = *text;
    } catch (const nlohmann::json::exception& e) {
      log_error(std::string(kTopicsFile) + " is not readable (" + e.what() +
                "): topics are recovered from their folders with default configs");
      records.clear();
    }
  }
  // Topics whose folders exist but which the metadata does not name (a crash right after
  // their creation): their id from partition.metadata, default configs.
  for (const auto& [name, partitions] : folders) {
    if (records.contains(name)) continue;
    TopicRecord record;
    record.partitions = partitions.rbegin()->first + 1;
    record.internal = name.starts_with("__");
    std::string error;
    if (const auto text = read_small_file(partitions.begin()->second / kPartitionMetadata)) {
      if (const auto id = parse_partition_metadata(*text, error)) record.id = *id;
    }
    records.emplace(name, std::move(record));
  }
  for (auto& [name, record] : records) {
    std::string error;
    auto config = resolve_topic_config(cluster.config().topic_defaults, record.configs, error);
    if (!config) {
      std::string warning = "topic " + name;
      warning += ": its saved configs are refused (" + error + "); it keeps the broker's defaults";
      log_warn(warning);
      config = cluster.config().topic_defaults;
      record.configs.clear();
    }
    StoredTopic* topic = cluster.restore_topic(name, record.id, record.partitions, *config,
                                               record.configs, record.internal, record.replicas);
    if (topic == nullptr) continue;
    ++report.topics;
    add_partitions(*topic, 0);  // folders a crash left missing are made again
    for (std::size_t p = 0; p < topic->partitions.size(); ++p) {
      const auto partition = static_cast<std::int32_t>(p);
      const fs::path folder = options_.path / partition_directory_name(name, partition);
      const auto key = std::make_pair(name, partition);
      const auto recovery = recovery_points.find(key);
      const auto start = log_starts.find(key);
      restore_partition(topic->partitions[p], folder,
                        recovery == recovery_points.end() ? -1 : recovery->second,
                        start == log_starts.end() ? 0 : start->second, report);
      ++report.partitions;
    }
    cluster.finish_restore(*topic);
  }
  std::set<std::int64_t> seen;
  for (const auto& [name, topic] : cluster.topics()) {
    for (BatchLog& log : topic->partitions) replay_producers(log, producers, seen);
  }
  report.producers = seen.size();
  producers.restore_issued_below(saved_producer_id_block_end());
  producers.save_id_blocks_with([this](std::int64_t block_start, std::int64_t block_end) {
    return save_producer_id_block(block_start, block_end);
  });
  topics_dirty_ = true;
  save_topics(cluster);
  report.milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  return report;
}

void LogDirectory::restore_partition(BatchLog& log, const fs::path& folder,
                                     std::int64_t recovery_point, std::int64_t log_start,
                                     RecoveryReport& report) {
  // The cleaner's leftovers first, as Kafka: a .cleaned file was never committed, a .swap
  // file was (the old segment goes, the swap file takes its name).
  std::map<std::int64_t, fs::path> segments;
  std::vector<fs::path> indexes;
  for (const fs::directory_entry& entry : fs::directory_iterator(folder)) {
    const std::string file = entry.path().filename().string();
    if (file.ends_with(".log.cleaned") || file.ends_with(".deleted")) {
      fs::remove(entry.path());
    } else if (const auto base = parse_segment_file_name(file, ".log.swap")) {
      const fs::path installed = folder / segment_file_name(*base, ".log");
      fs::remove(installed);
      fs::remove(folder / segment_file_name(*base, ".index"));
      fs::remove(folder / segment_file_name(*base, ".timeindex"));
      fs::rename(entry.path(), installed);
      segments[*base] = installed;
      ++report.swaps_completed;
      log_info("recovery: " + installed.string() + ": the cleaned segment was swapped in");
    } else if (const auto log_base = parse_segment_file_name(file, ".log")) {
      segments[*log_base] = entry.path();
    } else if (file.ends_with(".index") || file.ends_with(".timeindex")) {
      indexes.push_back(entry.path());
    }
  }
  bool cut = false;
  std::int64_t next_offset = 0;
  for (auto it = segments.begin(); it != segments.end(); ++it) {
    const auto& [base, path] = *it;
    if (cut) {
      log_warn("recovery: deleted " + path.string() + ": it follows a truncated segment");
      remove_segment_files(folder, base);
      continue;
    }
    const auto size = static_cast<std::size_t>(fs::file_size(path));
    if (size == 0) {
      remove_segment_files(folder, base);
      continue;
    }
    const auto next = std::next(it);
    auto segment = FileSegmentBytes::open_closed(path, base, size);
    const std::span<const std::uint8_t> bytes(segment->data(), size);
    const std::int64_t first_offset = std::max(base, next_offset);
    // CRCs are checked where the segment may hold offsets at or past the recovery point;
    // the last segment's end is known only once its headers are read.
    bool check_crc = recovery_point < 0 || (next != segments.end() && next->first > recovery_point);
    SegmentScan scan = scan_segment(bytes, first_offset, check_crc);
    if (!check_crc && next == segments.end() &&
        (scan.batches.empty() || scan.batches.back().last_offset >= recovery_point ||
         scan.stop != ScanStop::kEnd)) {
      check_crc = true;
      scan = scan_segment(bytes, first_offset, true);
    }
    if (check_crc) report.bytes_checked += static_cast<std::int64_t>(scan.valid_bytes);
    if (scan.stop == ScanStop::kZeroTail) {
      log_info("recovery: " + path.string() + ": trimmed " +
               std::to_string(size - scan.valid_bytes) + " preallocated byte(s) at byte " +
               std::to_string(scan.valid_bytes));
    } else if (scan.stop != ScanStop::kEnd) {
      log_warn("recovery: truncated " + path.string() + " at byte " +
               std::to_string(scan.valid_bytes) + ", cutting " +
               std::to_string(size - scan.valid_bytes) + " byte(s): " + scan.reason);
      ++report.truncations;
      report.bytes_cut += static_cast<std::int64_t>(size - scan.valid_bytes);
      cut = true;
    }
    const bool had_indexes = fs::exists(folder / segment_file_name(base, ".index"));
    if (scan.batches.empty()) {
      segment->discard();
      continue;
    }
    segment->close(scan.valid_bytes, /*pinned=*/false);
    if (!had_indexes || scan.stop != ScanStop::kEnd) ++report.indexes_rebuilt;
    std::vector<StoredBatch> batches;
    batches.reserve(scan.batches.size());
    for (const ScannedBatch& batch : scan.batches) {
      batches.push_back(StoredBatch{.base_offset = batch.base_offset,
                                    .last_offset = batch.last_offset,
                                    .max_timestamp = batch.max_timestamp,
                                    .data = segment->data() + batch.position,
                                    .size_bytes = batch.size_bytes});
    }
    next_offset = scan.batches.back().last_offset + 1;
    ++report.segments;
    report.batches += batches.size();
    report.bytes += static_cast<std::int64_t>(scan.valid_bytes);
    log.restore_segment(std::move(segment), base, scan.valid_bytes, batches, file_time_ms(path));
  }
  // Indexes whose segment is gone.
  for (const fs::path& index : indexes) {
    const std::string file = index.filename().string();
    const auto base = file.ends_with(".timeindex") ? parse_segment_file_name(file, ".timeindex")
                                                   : parse_segment_file_name(file, ".index");
    if (!base || !fs::exists(folder / segment_file_name(*base, ".log"))) fs::remove(index);
  }
  log.finish_restore(log_start);
  if (log_start > log.log_start_offset()) {
    log.delete_records_before(std::min(log_start, log.high_watermark()));
  }
  // The replicas share the log: all of them have it all, in sync.
  const std::vector<std::int32_t> nodes = log.replicas().replica_nodes();
  log.replicas().assign(nodes, log.log_end_offset());
  const std::array<LeaderEpochStart, 1> first_epoch{
      LeaderEpochStart{.epoch = 0, .start_offset = log.log_start_offset()}};
  log.replicas().restore_epochs(first_epoch);  // unless the checkpoint below says more
  if (const auto text = read_small_file(folder / kLeaderEpochs)) {
    written_[folder.filename().string() + "/" + std::string(kLeaderEpochs)] = *text;
    std::string error;
    if (const auto epochs = parse_leader_epoch_checkpoint(*text, error)) {
      std::vector<LeaderEpochStart> kept;
      for (const EpochStart& epoch : *epochs) {
        if (epoch.start_offset <= log.log_end_offset()) {
          kept.push_back({epoch.epoch, epoch.start_offset});
        }
      }
      log.replicas().restore_epochs(kept);
    } else {
      log_warn("ignoring " + (folder / kLeaderEpochs).string() + ": " + error);
    }
  }
}

}  // namespace kgroups::broker
