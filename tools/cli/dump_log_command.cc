// SPDX-License-Identifier: Apache-2.0
#include "dump_log_command.h"

#include <fstream>
#include <iterator>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "broker/log_format/segment_file_name.h"
#include "broker/log_format/segment_index_format.h"
#include "broker/log_format/segment_scan.h"
#include "protocol/batch_records.h"

namespace kgroups::cli {
namespace {

namespace fs = std::filesystem;
using broker::ScannedBatch;
using broker::ScanStop;

constexpr const char* kCodecs[] = {"none", "gzip",    "snappy",  "lz4",
                                   "zstd", "unknown", "unknown", "unknown"};

std::vector<std::uint8_t> read_bytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::int64_t base_offset_of(const fs::path& file, std::string_view suffix) {
  const auto base = broker::parse_segment_file_name(file.filename().string(), suffix);
  if (!base) {
    throw std::runtime_error(file.filename().string() +
                             " is not named by a 20-digit base offset, as Kafka names segments");
  }
  return *base;
}

std::string printable(const std::optional<protocol::ByteView>& bytes) {
  if (!bytes) return "null";
  return {bytes->begin(), bytes->end()};
}

void print_records(const ScannedBatch& batch, std::span<const std::uint8_t> bytes,
                   std::ostream& out) {
  if ((batch.attributes & 0x07) != 0) {
    out << "| (" << kCodecs[batch.attributes & 0x07] << "-compressed records not decoded)\n";
    return;
  }
  const auto records = protocol::decode_batch_records(bytes);
  if (!records) {
    out << "| (the records do not decode)\n";
    return;
  }
  for (const protocol::BatchRecord& record : *records) {
    out << "| offset: " << batch.base_offset + record.offset_delta
        << ((batch.attributes & 0x08) != 0 ? " LogAppendTime: " : " CreateTime: ")
        << batch.base_timestamp + record.timestamp_delta
        << " keySize: " << (record.key ? static_cast<std::int64_t>(record.key->size()) : -1)
        << " valueSize: " << (record.value ? static_cast<std::int64_t>(record.value->size()) : -1)
        << " sequence: "
        << (batch.base_sequence < 0 ? -1 : batch.base_sequence + record.offset_delta)
        << " headerKeys: [";
    for (std::size_t i = 0; i < record.headers.size(); ++i) {
      out << (i == 0 ? "" : ",") << record.headers[i].key;
    }
    out << "]";
    if (batch.control && record.key && record.key->size() >= 4) {
      const int type = ((*record.key)[2] << 8) | (*record.key)[3];
      out << " endTxnMarker: " << (type == 1 ? "COMMIT" : "ABORT");
    } else {
      out << " key: " << printable(record.key) << " payload: " << printable(record.value);
    }
    out << "\n";
  }
}

void dump_segment(const fs::path& file, bool print_data, std::ostream& out) {
  const std::int64_t base = base_offset_of(file, ".log");
  const std::vector<std::uint8_t> bytes = read_bytes(file);
  const broker::SegmentScan scan = broker::scan_segment(bytes, base, /*check_crc=*/true);
  out << "Dumping " << file.string() << "\nLog starting offset: " << base << "\n";
  for (const ScannedBatch& batch : scan.batches) {
    const std::int32_t last_sequence =
        batch.base_sequence < 0 ? -1 : batch.base_sequence + batch.record_count - 1;
    out << "baseOffset: " << batch.base_offset << " lastOffset: " << batch.last_offset
        << " count: " << batch.record_count << " baseSequence: " << batch.base_sequence
        << " lastSequence: " << last_sequence << " producerId: " << batch.producer_id
        << " producerEpoch: " << batch.producer_epoch
        << " partitionLeaderEpoch: " << batch.partition_leader_epoch
        << " isTransactional: " << (batch.transactional ? "true" : "false")
        << " isControl: " << (batch.control ? "true" : "false") << " position: " << batch.position
        << ((batch.attributes & 0x08) != 0 ? " LogAppendTime: " : " CreateTime: ")
        << batch.max_timestamp << " size: " << batch.size_bytes
        << " magic: 2 compresscodec: " << kCodecs[batch.attributes & 0x07] << " crc: " << batch.crc
        << " isvalid: true\n";
    if (print_data) {
      print_records(batch,
                    std::span<const std::uint8_t>(bytes).subspan(batch.position, batch.size_bytes),
                    out);
    }
  }
  const std::size_t rest = bytes.size() - scan.valid_bytes;
  if (scan.stop == ScanStop::kZeroTail) {
    out << "Found " << rest << " bytes of reserved zeros at position " << scan.valid_bytes
        << " (space a running or killed broker reserved; recovery cuts it)\n";
  } else if (scan.stop != ScanStop::kEnd) {
    out << "Found " << rest << " invalid bytes at position " << scan.valid_bytes << ": "
        << scan.reason << " (recovery truncates the log there)\n";
  }
}

int dump(const fs::path& file, bool print_data, std::ostream& out) {
  const std::string name = file.filename().string();
  if (name.ends_with(".log")) {
    dump_segment(file, print_data, out);
  } else if (name.ends_with(".timeindex")) {
    const std::int64_t base = base_offset_of(file, ".timeindex");
    out << "Dumping " << file.string() << "\n";
    for (const auto& entry : broker::parse_time_index(read_bytes(file), base)) {
      out << "timestamp: " << entry.timestamp << " offset: " << entry.offset << "\n";
    }
  } else if (name.ends_with(".index")) {
    const std::int64_t base = base_offset_of(file, ".index");
    out << "Dumping " << file.string() << "\n";
    for (const auto& entry : broker::parse_offset_index(read_bytes(file), base)) {
      out << "offset: " << entry.offset << " position: " << entry.position << "\n";
    }
  } else {
    throw std::runtime_error(name + " is not a .log, .index or .timeindex file");
  }
  return 0;
}

}  // namespace

int dump_log_file(const fs::path& file, bool print_data, std::ostream& out) {
  if (!fs::is_regular_file(file)) throw std::runtime_error(file.string() + ": no such file");
  return dump(file, print_data, out);
}

void add_dump_log_command(CLI::App& app, CommandAction& action) {
  auto files = std::make_shared<std::vector<std::string>>();
  auto print_data = std::make_shared<bool>(false);
  CLI::App* command = app.add_subcommand(
      "dump-log",
      "print a log directory's segment (.log), offset index (.index) or time index "
      "(.timeindex), as Kafka's kafka-dump-log.sh does; where a segment stops being valid "
      "and why");
  command->add_option("FILE", *files, "the files to print")->required();
  command->add_flag("--print-data-log", *print_data, "print every record of each batch too");
  command->callback([&action, files, print_data] {
    action = [files, print_data](std::ostream& out) {
      for (const std::string& file : *files) dump_log_file(file, *print_data, out);
      return 0;
    };
  });
}

}  // namespace kgroups::cli
