// SPDX-License-Identifier: Apache-2.0
#include "dump_log_command.h"

#include <array>
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "broker/log_format/checkpoint_files.h"
#include "broker/log_format/segment_file_name.h"
#include "broker/log_format/segment_index_format.h"
#include "broker/log_format/segment_scan.h"
#include "protocol/batch_records.h"
#include "protocol/error_code.h"
#include "protocol/record_batch.h"
#include "protocol/record_decompressor.h"

namespace kgroups::cli {
namespace {

namespace fs = std::filesystem;
using broker::ScannedBatch;
using broker::ScanStop;
using Json = nlohmann::ordered_json;

// A decompressed batch may expand to at most this (a corrupt payload stops there).
constexpr std::size_t kMaxDecompressedBytes = std::size_t{1} << 30;

enum class FileKind { kLog, kOffsetIndex, kTimeIndex };

struct Suffix {
  std::string_view text;
  FileKind kind;
};
constexpr std::array<Suffix, 6> kSuffixes{{{".log", FileKind::kLog},
                                           {".log.cleaned", FileKind::kLog},
                                           {".log.swap", FileKind::kLog},
                                           {".log.deleted", FileKind::kLog},
                                           {".index", FileKind::kOffsetIndex},
                                           {".timeindex", FileKind::kTimeIndex}}};

// Kafka's CompressionType names, by the codec bits.
constexpr std::array<std::string_view, 8> kCodecNames{"none", "gzip",    "snappy",  "lz4",
                                                      "zstd", "unknown", "unknown", "unknown"};

// Kafka's ControlRecordType names, by type id.
constexpr std::array<std::string_view, 7> kControlTypes{
    "ABORT",           "COMMIT",        "LEADER_CHANGE", "SNAPSHOT_HEADER",
    "SNAPSHOT_FOOTER", "KRAFT_VERSION", "KRAFT_VOTERS"};

std::string_view codec_name(const ScannedBatch& batch) {
  return kCodecNames[static_cast<std::size_t>(batch.attributes) & 0x07U];
}

std::string_view timestamp_type(const ScannedBatch& batch) {
  return (batch.attributes & 0x08) != 0 ? "LogAppendTime" : "CreateTime";
}

// Kafka's DefaultRecordBatch.incrementSequence: sequences wrap from INT32_MAX to 0.
std::int32_t sequence_at(std::int32_t base_sequence, std::int64_t delta) {
  if (base_sequence < 0) return -1;
  std::int64_t sequence = base_sequence + delta;
  if (sequence > std::numeric_limits<std::int32_t>::max()) {
    sequence -= std::int64_t{std::numeric_limits<std::int32_t>::max()} + 1;
  }
  return static_cast<std::int32_t>(sequence);
}

std::uint32_t read_be(std::span<const std::uint8_t> bytes, std::size_t at, std::size_t width) {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < width; ++i) value = (value << 8U) | bytes[at + i];
  return value;
}

// Key or value bytes as text, one line: bytes below 0x20 and 0x7f as \xNN.
std::string printable(protocol::ByteView bytes) {
  std::string text;
  text.reserve(bytes.size());
  for (const std::uint8_t byte : bytes) {
    if (byte < 0x20 || byte == 0x7F) {
      std::array<char, 5> escaped{};
      std::snprintf(escaped.data(), escaped.size(), "\\x%02x", byte);
      text += escaped.data();
    } else {
      text += static_cast<char>(byte);
    }
  }
  return text;
}

std::int64_t size_of(const std::optional<protocol::ByteView>& bytes) {
  return bytes ? static_cast<std::int64_t>(bytes->size()) : -1;
}

// The file's kind and base offset, from its name.
std::pair<FileKind, std::int64_t> classify(const fs::path& file) {
  const std::string name = file.filename().string();
  for (const Suffix& suffix : kSuffixes) {
    if (const auto base = broker::parse_segment_file_name(name, suffix.text)) {
      return {suffix.kind, *base};
    }
  }
  throw DumpLogError(file.string() +
                     ": not a segment file (a 20-digit base offset and .log, .index or "
                     ".timeindex, as Kafka names them)");
}

std::string read_file(const fs::path& file) {
  try {
    std::optional<std::string> bytes = broker::read_small_file(file);
    if (!bytes) throw DumpLogError(file.string() + ": no such file");
    return std::move(*bytes);
  } catch (const std::system_error& error) {
    throw DumpLogError(error.what());
  }
}

// The records of one batch, decompressed when they are compressed. `scratch` holds the
// decompressed batch the records view; nullopt with `error` when they do not decode.
std::optional<std::vector<protocol::BatchRecord>> decode_records(
    std::span<const std::uint8_t> batch, protocol::RecordDecompressor& decompressor,
    std::vector<std::uint8_t>& scratch, std::string& error) {
  const auto header = protocol::parse_record_batch_header(batch);
  if (!header) {
    error = std::string(protocol::error_name(header.error()));
    return std::nullopt;
  }
  std::span<const std::uint8_t> plain = batch;
  if (header->compression() != protocol::Compression::kNone) {
    const auto records = decompressor.decompress(
        header->compression(), batch.subspan(protocol::kBatchHeaderSize), kMaxDecompressedBytes);
    if (!records) {
      error = std::string(protocol::error_name(records.error())) + ": " +
              std::string(decompressor.last_error());
      return std::nullopt;
    }
    // The same batch uncompressed: codec bits cleared, batchLength fitted to the records.
    scratch.assign(batch.begin(), batch.begin() + protocol::kBatchHeaderSize);
    scratch.insert(scratch.end(), records->begin(), records->end());
    scratch[protocol::kBatchAttributesOffset + 1] &= 0xF8U;
    const auto length = static_cast<std::uint32_t>(scratch.size() - protocol::kBatchLogOverhead);
    for (std::size_t i = 0; i < 4; ++i) {
      scratch[protocol::kBatchLengthOffset + i] = static_cast<std::uint8_t>(length >> (24 - 8 * i));
    }
    plain = scratch;
  }
  auto records = protocol::decode_batch_records(plain);
  if (!records) {
    error = std::string(protocol::error_name(records.error()));
    return std::nullopt;
  }
  return std::move(*records);
}

// A control record's marker, as Kafka's DumpLogSegments prints it: " endTxnMarker: COMMIT
// coordinatorEpoch: 3" for a transaction marker, " controlType: NAME(id)" otherwise.
Json control_marker(const protocol::BatchRecord& record) {
  const std::optional<protocol::ByteView>& key = record.key;
  if (!key || key->size() < 4) return {{"controlType", "UNKNOWN(-1)"}};
  const auto type = static_cast<std::int16_t>(read_be(*key, 2, 2));
  if (type == 0 || type == 1) {
    const std::int32_t epoch = record.value && record.value->size() >= 6
                                   ? static_cast<std::int32_t>(read_be(*record.value, 2, 4))
                                   : -1;
    return {{"endTxnMarker", kControlTypes[static_cast<std::size_t>(type)]},
            {"coordinatorEpoch", epoch}};
  }
  const std::string_view name = type >= 0 && static_cast<std::size_t>(type) < kControlTypes.size()
                                    ? kControlTypes[static_cast<std::size_t>(type)]
                                    : "UNKNOWN";
  return {{"controlType", std::string(name) + "(" + std::to_string(type) + ")"}};
}

Json record_json(const ScannedBatch& batch, const protocol::BatchRecord& record) {
  const bool log_append_time = (batch.attributes & 0x08) != 0;
  Json headers = Json::array();
  for (const protocol::RecordHeader& header : record.headers) headers.push_back(header.key);
  Json json = {{"offset", batch.base_offset + record.offset_delta},
               {"timestampType", timestamp_type(batch)},
               {"timestamp", log_append_time ? batch.max_timestamp
                                             : batch.base_timestamp + record.timestamp_delta},
               {"keySize", size_of(record.key)},
               {"valueSize", size_of(record.value)},
               {"sequence", sequence_at(batch.base_sequence, record.offset_delta)},
               {"headerKeys", headers}};
  if (batch.control) {
    json.update(control_marker(record));
  } else {
    json["key"] = record.key ? Json(printable(*record.key)) : Json(nullptr);
    json["payload"] = record.value ? Json(printable(*record.value)) : Json(nullptr);
  }
  return json;
}

void print_record(const Json& record, std::ostream& out) {
  out << "| offset: " << record["offset"].get<std::int64_t>() << " "
      << record["timestampType"].get<std::string>() << ": "
      << record["timestamp"].get<std::int64_t>()
      << " keySize: " << record["keySize"].get<std::int64_t>()
      << " valueSize: " << record["valueSize"].get<std::int64_t>()
      << " sequence: " << record["sequence"].get<std::int32_t>() << " headerKeys: [";
  const Json& headers = record["headerKeys"];
  for (std::size_t i = 0; i < headers.size(); ++i) {
    out << (i == 0 ? "" : ",") << headers[i].get<std::string>();
  }
  out << "]";
  if (record.contains("endTxnMarker")) {
    out << " endTxnMarker: " << record["endTxnMarker"].get<std::string>()
        << " coordinatorEpoch: " << record["coordinatorEpoch"].get<std::int32_t>();
  } else if (record.contains("controlType")) {
    out << " controlType: " << record["controlType"].get<std::string>();
  } else {
    if (!record["key"].is_null()) out << " key: " << record["key"].get<std::string>();
    if (!record["payload"].is_null()) out << " payload: " << record["payload"].get<std::string>();
  }
  out << "\n";
}

Json batch_json(const ScannedBatch& batch, bool crc_valid) {
  return {{"baseOffset", batch.base_offset},
          {"lastOffset", batch.last_offset},
          {"count", batch.record_count},
          {"baseSequence", batch.base_sequence},
          {"lastSequence", sequence_at(batch.base_sequence, batch.last_offset - batch.base_offset)},
          {"producerId", batch.producer_id},
          {"producerEpoch", batch.producer_epoch},
          {"partitionLeaderEpoch", batch.partition_leader_epoch},
          {"isTransactional", batch.transactional},
          {"isControl", batch.control},
          {"position", batch.position},
          {"timestampType", timestamp_type(batch)},
          {"maxTimestamp", batch.max_timestamp},
          {"size", batch.size_bytes},
          {"magic", 2},
          {"compresscodec", codec_name(batch)},
          {"crc", batch.crc},
          {"isvalid", crc_valid}};
}

void print_batch(const Json& batch, std::ostream& out) {
  const auto boolean = [](const Json& value) { return value.get<bool>() ? "true" : "false"; };
  out << "baseOffset: " << batch["baseOffset"] << " lastOffset: " << batch["lastOffset"]
      << " count: " << batch["count"] << " baseSequence: " << batch["baseSequence"]
      << " lastSequence: " << batch["lastSequence"] << " producerId: " << batch["producerId"]
      << " producerEpoch: " << batch["producerEpoch"]
      << " partitionLeaderEpoch: " << batch["partitionLeaderEpoch"]
      << " isTransactional: " << boolean(batch["isTransactional"])
      << " isControl: " << boolean(batch["isControl"]) << " position: " << batch["position"] << " "
      << batch["timestampType"].get<std::string>() << ": " << batch["maxTimestamp"]
      << " size: " << batch["size"] << " magic: " << batch["magic"]
      << " compresscodec: " << batch["compresscodec"].get<std::string>() << " crc: " << batch["crc"]
      << " isvalid: " << boolean(batch["isvalid"]) << "\n";
}

std::string_view stop_name(ScanStop stop) {
  switch (stop) {
    case ScanStop::kEnd:
      return "end";
    case ScanStop::kZeroTail:
      return "zero_tail";
    case ScanStop::kTornTail:
      return "torn_tail";
    case ScanStop::kCorrupt:
      return "corrupt";
  }
  return "end";
}

std::string json_line(const Json& json) {
  return json.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

// Every batch the file's structure holds (CRCs are checked per batch, as isvalid, and do not
// stop the walk, as in Kafka's tool), then where recovery, which checks CRCs, would cut.
void dump_segment(const fs::path& file, std::int64_t base_offset,
                  std::span<const std::uint8_t> bytes, const DumpLogOptions& options,
                  std::ostream& out) {
  const broker::SegmentScan walk = broker::scan_segment(bytes, base_offset, false);
  const broker::SegmentScan checked = broker::scan_segment(bytes, base_offset, true);
  if (!options.json) {
    out << "Dumping " << file.string() << "\nLog starting offset: " << base_offset << "\n";
  }
  protocol::RecordDecompressor decompressor;
  std::vector<std::uint8_t> scratch;
  Json batches = Json::array();
  for (const ScannedBatch& batch : walk.batches) {
    const auto batch_bytes = bytes.subspan(batch.position, batch.size_bytes);
    Json json = batch_json(batch, protocol::compute_batch_crc(batch_bytes) == batch.crc);
    if (!options.json) print_batch(json, out);
    if (options.print_data_log) {
      std::string error;
      const auto records = decode_records(batch_bytes, decompressor, scratch, error);
      if (records) {
        Json records_json = Json::array();
        for (const protocol::BatchRecord& record : *records) {
          records_json.push_back(record_json(batch, record));
          if (!options.json) print_record(records_json.back(), out);
        }
        json["records"] = std::move(records_json);
      } else {
        json["recordsError"] = error;
        if (!options.json) out << "| the records do not decode: " << error << "\n";
      }
    }
    batches.push_back(std::move(json));
  }
  const std::size_t rest = bytes.size() - checked.valid_bytes;
  if (options.json) {
    out << json_line({{"file", file.string()},
                      {"kind", "log"},
                      {"baseOffset", base_offset},
                      {"sizeBytes", bytes.size()},
                      {"batches", std::move(batches)},
                      {"validBytes", checked.valid_bytes},
                      {"stop", stop_name(checked.stop)},
                      {"reason", checked.reason}});
  } else if (checked.stop == ScanStop::kZeroTail) {
    out << "Found " << rest << " bytes of preallocated zeros at position " << checked.valid_bytes
        << "\n";
  } else if (checked.stop != ScanStop::kEnd) {
    out << "Found " << rest << " invalid bytes at position " << checked.valid_bytes << ": "
        << checked.reason << "\n";
  }
}

// An index's entries, each two named numbers (Kafka's order: offset and position, or
// timestamp and offset).
struct IndexDump {
  std::string_view kind;  // "index" or "timeindex"
  std::string_view first_name;
  std::string_view second_name;
  std::vector<std::pair<std::int64_t, std::int64_t>> entries;
};

void dump_index(const fs::path& file, std::int64_t base_offset, const IndexDump& index,
                const DumpLogOptions& options, std::ostream& out) {
  if (options.json) {
    Json list = Json::array();
    for (const auto& [first, second] : index.entries) {
      list.push_back({{index.first_name, first}, {index.second_name, second}});
    }
    out << json_line({{"file", file.string()},
                      {"kind", index.kind},
                      {"baseOffset", base_offset},
                      {"entries", std::move(list)}});
    return;
  }
  out << "Dumping " << file.string() << "\n";
  if (index.entries.empty()) out << file.string() << " is empty.\n";
  for (const auto& [first, second] : index.entries) {
    out << index.first_name << ": " << first << " " << index.second_name << ": " << second << "\n";
  }
}

void dump_offset_index(const fs::path& file, std::int64_t base_offset,
                       std::span<const std::uint8_t> bytes, const DumpLogOptions& options,
                       std::ostream& out) {
  IndexDump index{
      .kind = "index", .first_name = "offset", .second_name = "position", .entries = {}};
  for (const auto& entry : broker::parse_offset_index(bytes, base_offset)) {
    index.entries.emplace_back(entry.offset, entry.position);
  }
  dump_index(file, base_offset, index, options, out);
}

void dump_time_index(const fs::path& file, std::int64_t base_offset,
                     std::span<const std::uint8_t> bytes, const DumpLogOptions& options,
                     std::ostream& out) {
  IndexDump index{
      .kind = "timeindex", .first_name = "timestamp", .second_name = "offset", .entries = {}};
  for (const auto& entry : broker::parse_time_index(bytes, base_offset)) {
    index.entries.emplace_back(entry.timestamp, entry.offset);
  }
  dump_index(file, base_offset, index, options, out);
}

}  // namespace

void dump_log_file(const fs::path& file, const DumpLogOptions& options, std::ostream& out) {
  const auto [kind, base_offset] = classify(file);
  const std::string contents = read_file(file);
  const std::span<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(contents.data()),
                                            contents.size());
  switch (kind) {
    case FileKind::kLog:
      dump_segment(file, base_offset, bytes, options, out);
      break;
    case FileKind::kOffsetIndex:
      dump_offset_index(file, base_offset, bytes, options, out);
      break;
    case FileKind::kTimeIndex:
      dump_time_index(file, base_offset, bytes, options, out);
      break;
  }
}

void add_dump_log_command(CLI::App& app, CommandAction& action) {
  auto files = std::make_shared<std::vector<std::string>>();
  auto options = std::make_shared<DumpLogOptions>();
  CLI::App* command = app.add_subcommand(
      "dump-log",
      "print a log directory's segment (.log), offset index (.index) or time index "
      "(.timeindex) as Kafka's kafka-dump-log.sh does, and where a segment stops being valid "
      "and why");
  command->add_option("FILE", *files, "the files to print")->required();
  command->add_flag("--print-data-log", options->print_data_log,
                    "print every record of each batch too (key, payload, control markers)");
  command->add_flag("--json", options->json, "print one JSON object per file");
  command->callback([&action, files, options] {
    action = [files, options](std::ostream& out) {
      int code = 0;
      for (const std::string& file : *files) {
        try {
          dump_log_file(file, *options, out);
        } catch (const DumpLogError& error) {
          out.flush();
          std::cerr << "kgroups: " << error.what() << "\n";
          code = 2;
        }
      }
      return code;
    };
  });
}

}  // namespace kgroups::cli
