// SPDX-License-Identifier: Apache-2.0
#include "protocol/coordinator_records/transaction_log_value.h"

#include <array>

#include "protocol/wire_reader.h"
#include "protocol/wire_writer.h"

namespace kgroups::protocol {
namespace {

constexpr std::uint32_t kPreviousProducerIdTag = 0;
constexpr std::uint32_t kNextProducerIdTag = 1;
constexpr std::uint32_t kClientTransactionVersionTag = 2;

void write_topic(WireWriter& writer, const TransactionLogTopic& topic, bool flexible) {
  if (flexible) {
    writer.write_compact_string(topic.topic);
  } else {
    writer.write_string(topic.topic);
  }
  const auto write_id = [](WireWriter& out, std::int32_t id) { out.write_int32(id); };
  if (flexible) {
    writer.write_compact_array_length(static_cast<std::int32_t>(topic.partitions.size()));
    for (const std::int32_t id : topic.partitions) write_id(writer, id);
    writer.write_empty_tagged_fields();
  } else {
    writer.write_array(topic.partitions, write_id);
  }
}

TransactionLogTopic read_topic(WireReader& reader, bool flexible) {
  TransactionLogTopic topic;
  topic.topic = std::string(flexible ? reader.read_compact_string() : reader.read_string());
  const std::int32_t count =
      flexible ? reader.read_compact_array_length(4) : reader.read_array_length(4);
  for (std::int32_t i = 0; i < count && reader.ok(); ++i) {
    topic.partitions.push_back(reader.read_int32());
  }
  if (flexible) reader.skip_tagged_fields();
  return topic;
}

// v1's tagged fields that differ from their defaults, in tag order.
void write_tagged_fields(WireWriter& writer, const TransactionLogValue& value) {
  std::uint32_t count = 0;
  if (value.previous_producer_id != -1) ++count;
  if (value.next_producer_id != -1) ++count;
  if (value.client_transaction_version != 0) ++count;
  writer.write_unsigned_varint(count);
  if (value.previous_producer_id != -1) {
    writer.write_unsigned_varint(kPreviousProducerIdTag);
    writer.write_unsigned_varint(8);
    writer.write_int64(value.previous_producer_id);
  }
  if (value.next_producer_id != -1) {
    writer.write_unsigned_varint(kNextProducerIdTag);
    writer.write_unsigned_varint(8);
    writer.write_int64(value.next_producer_id);
  }
  if (value.client_transaction_version != 0) {
    writer.write_unsigned_varint(kClientTransactionVersionTag);
    writer.write_unsigned_varint(2);
    writer.write_int16(value.client_transaction_version);
  }
}

// Reads v1's tagged fields into `value`; a known tag of the wrong size fails the reader.
void read_tagged_fields(WireReader& reader, TransactionLogValue& value) {
  const std::uint32_t count = reader.read_unsigned_varint();
  if (static_cast<std::size_t>(count) * 2 > reader.remaining()) {
    reader.fail();
    return;
  }
  for (std::uint32_t i = 0; i < count && reader.ok(); ++i) {
    const std::uint32_t tag = reader.read_unsigned_varint();
    const std::uint32_t size = reader.read_unsigned_varint();
    WireReader field(reader.read_raw(size));
    if (tag == kPreviousProducerIdTag) {
      value.previous_producer_id = field.read_int64();
    } else if (tag == kNextProducerIdTag) {
      value.next_producer_id = field.read_int64();
    } else if (tag == kClientTransactionVersionTag) {
      value.client_transaction_version = field.read_int16();
    } else {
      continue;  // a field of a later Kafka: skipped
    }
    if (!field.ok() || field.remaining() != 0) reader.fail();
  }
}

}  // namespace

std::string_view transaction_log_state_name(TransactionLogState state) {
  static constexpr std::array<std::string_view, 8> kNames = {
      "Empty",          "Ongoing",       "PrepareCommit", "PrepareAbort",
      "CompleteCommit", "CompleteAbort", "Dead",          "PrepareEpochFence"};
  const auto id = static_cast<std::size_t>(static_cast<std::uint8_t>(state));
  return id < kNames.size() ? kNames[id] : "Unknown";
}

std::vector<std::uint8_t> TransactionLogValue::encode() const {
  std::vector<std::uint8_t> out;
  WireWriter writer(out);
  const bool flexible = version >= 1;
  writer.write_int16(version);
  writer.write_int64(producer_id);
  writer.write_int16(producer_epoch);
  writer.write_int32(timeout_ms);
  writer.write_int8(static_cast<std::int8_t>(state));
  const std::int32_t topics = partitions ? static_cast<std::int32_t>(partitions->size()) : -1;
  if (flexible) {
    writer.write_compact_array_length(topics);
  } else {
    writer.write_array_length(topics);
  }
  if (partitions) {
    for (const TransactionLogTopic& topic : *partitions) write_topic(writer, topic, flexible);
  }
  writer.write_int64(last_update_timestamp_ms);
  writer.write_int64(start_timestamp_ms);
  if (flexible) write_tagged_fields(writer, *this);
  return out;
}

Result<TransactionLogValue> TransactionLogValue::decode(std::span<const std::uint8_t> bytes) {
  WireReader reader(bytes);
  TransactionLogValue value;
  value.version = reader.read_int16();
  if (!reader.ok() || value.version < 0 || value.version > kMaxVersion) {
    return ErrorCode::kCorruptMessage;
  }
  const bool flexible = value.version >= 1;
  value.producer_id = reader.read_int64();
  value.producer_epoch = reader.read_int16();
  value.timeout_ms = reader.read_int32();
  value.state = static_cast<TransactionLogState>(reader.read_int8());
  const std::int32_t topics =
      flexible ? reader.read_compact_array_length(2) : reader.read_array_length(2);
  if (topics >= 0) {
    value.partitions.emplace();
    for (std::int32_t i = 0; i < topics && reader.ok(); ++i) {
      value.partitions->push_back(read_topic(reader, flexible));
    }
  }
  value.last_update_timestamp_ms = reader.read_int64();
  value.start_timestamp_ms = reader.read_int64();
  if (flexible) read_tagged_fields(reader, value);
  if (!reader.ok() || reader.remaining() != 0) return ErrorCode::kCorruptMessage;
  return value;
}

}  // namespace kgroups::protocol
