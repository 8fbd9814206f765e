// SPDX-License-Identifier: Apache-2.0
#include "coordinator_log_record.h"

#include "protocol/coordinator_records/consumer_group_record_values.h"
#include "protocol/coordinator_records/coordinator_record_key.h"
#include "protocol/coordinator_records/group_metadata_value.h"
#include "protocol/coordinator_records/offset_commit_value.h"
#include "protocol/coordinator_records/transaction_log_key.h"
#include "protocol/coordinator_records/transaction_log_value.h"

namespace kgroups::cli {
namespace {

using Json = nlohmann::ordered_json;
using protocol::CoordinatorRecordType;

Json nullable(const std::optional<std::string>& text) { return text ? Json(*text) : Json(nullptr); }

std::string hex(const protocol::Uuid& id) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (const std::uint8_t byte : id) {
    out += kDigits[byte >> 4];
    out += kDigits[byte & 0xF];
  }
  return out;
}

Json partitions_json(const std::vector<protocol::ConsumerGroupRecordPartitions>& topics) {
  Json out = Json::array();
  for (const auto& topic : topics) {
    out.push_back({{"topic_id", hex(topic.topic_id)}, {"partitions", topic.partitions}});
  }
  return out;
}

// The value's fields, or {"undecodable": size} when it does not decode as its type's.
Json value_json(CoordinatorRecordType type, protocol::ByteView bytes) {
  Json undecodable = {{"undecodable_bytes", bytes.size()}};
  switch (type) {
    case CoordinatorRecordType::kLegacyOffsetCommit:
    case CoordinatorRecordType::kOffsetCommit: {
      const auto value = protocol::OffsetCommitValue::decode(bytes);
      if (!value) return undecodable;
      Json out = {{"offset", value->offset},
                  {"leader_epoch", value->leader_epoch},
                  {"metadata", value->metadata},
                  {"commit_timestamp_ms", value->commit_timestamp_ms}};
      if (value->version == 1) out["expire_timestamp_ms"] = value->expire_timestamp_ms;
      out["version"] = value->version;
      return out;
    }
    case CoordinatorRecordType::kGroupMetadata: {
      const auto value = protocol::GroupMetadataValue::decode(bytes);
      if (!value) return undecodable;
      Json members = Json::array();
      for (const auto& member : value->members) {
        members.push_back({{"member_id", member.member_id},
                           {"group_instance_id", nullable(member.group_instance_id)},
                           {"client_id", member.client_id},
                           {"client_host", member.client_host},
                           {"rebalance_timeout_ms", member.rebalance_timeout_ms},
                           {"session_timeout_ms", member.session_timeout_ms},
                           {"subscription_bytes", member.subscription.size()},
                           {"assignment_bytes", member.assignment.size()}});
      }
      return {{"protocol_type", value->protocol_type},
              {"generation", value->generation},
              {"protocol", nullable(value->protocol)},
              {"leader", nullable(value->leader)},
              {"current_state_timestamp_ms", value->current_state_timestamp_ms},
              {"members", members},
              {"version", value->version}};
    }
    case CoordinatorRecordType::kConsumerGroupMetadata: {
      const auto value = protocol::ConsumerGroupMetadataValue::decode(bytes);
      if (!value) return undecodable;
      return {{"epoch", value->epoch}, {"version", value->version}};
    }
    case CoordinatorRecordType::kConsumerGroupMemberMetadata: {
      const auto value = protocol::ConsumerGroupMemberMetadataValue::decode(bytes);
      if (!value) return undecodable;
      return {{"instance_id", nullable(value->instance_id)},
              {"rack_id", nullable(value->rack_id)},
              {"client_id", value->client_id},
              {"client_host", value->client_host},
              {"subscribed_topic_names", value->subscribed_topic_names},
              {"subscribed_topic_regex", nullable(value->subscribed_topic_regex)},
              {"rebalance_timeout_ms", value->rebalance_timeout_ms},
              {"server_assignor", nullable(value->server_assignor)},
              {"version", value->version}};
    }
    case CoordinatorRecordType::kConsumerGroupTargetAssignmentMetadata: {
      const auto value = protocol::ConsumerGroupTargetAssignmentMetadataValue::decode(bytes);
      if (!value) return undecodable;
      return {{"assignment_epoch", value->assignment_epoch}, {"version", value->version}};
    }
    case CoordinatorRecordType::kConsumerGroupTargetAssignmentMember: {
      const auto value = protocol::ConsumerGroupTargetAssignmentMemberValue::decode(bytes);
      if (!value) return undecodable;
      return {{"topic_partitions", partitions_json(value->topic_partitions)},
              {"version", value->version}};
    }
    case CoordinatorRecordType::kConsumerGroupCurrentMemberAssignment: {
      const auto value = protocol::ConsumerGroupCurrentMemberAssignmentValue::decode(bytes);
      if (!value) return undecodable;
      return {
          {"member_epoch", value->member_epoch},
          {"previous_member_epoch", value->previous_member_epoch},
          {"state", value->state},
          {"assigned_partitions", partitions_json(value->assigned_partitions)},
          {"partitions_pending_revocation", partitions_json(value->partitions_pending_revocation)},
          {"version", value->version}};
    }
    case CoordinatorRecordType::kConsumerGroupPartitionMetadata:
      return {{"bytes", bytes.size()}};  // not decoded: Kafka 4.1 stopped writing it
  }
  return undecodable;
}

Json transaction_value_json(protocol::ByteView bytes) {
  const auto value = protocol::TransactionLogValue::decode(bytes);
  if (!value) return {{"undecodable_bytes", bytes.size()}};
  Json partitions = nullptr;
  if (value->partitions) {
    partitions = Json::array();
    for (const protocol::TransactionLogTopic& topic : *value->partitions) {
      partitions.push_back({{"topic", topic.topic}, {"partitions", topic.partitions}});
    }
  }
  Json out = {{"producer_id", value->producer_id},
              {"producer_epoch", value->producer_epoch},
              {"timeout_ms", value->timeout_ms},
              {"state", protocol::transaction_log_state_name(value->state)},
              {"partitions", partitions},
              {"last_update_timestamp_ms", value->last_update_timestamp_ms},
              {"start_timestamp_ms", value->start_timestamp_ms}};
  if (value->version >= 1) {
    out["previous_producer_id"] = value->previous_producer_id;
    out["next_producer_id"] = value->next_producer_id;
    out["client_transaction_version"] = value->client_transaction_version;
  }
  out["version"] = value->version;
  return out;
}

// `name=value` pairs of a JSON object, strings quoted, on one line.
std::string fields_text(const Json& fields) {
  std::string out;
  for (const auto& [name, value] : fields.items()) {
    if (!out.empty()) out += ' ';
    out += name + "=" + value.dump();
  }
  return out;
}

// The line of a record given as JSON: its type, its key fields, then its value's or "tombstone".
std::string record_line(Json record) {
  const Json fields = record["value"];
  record.erase("value");
  const std::string type = record["type"].get<std::string>();
  record.erase("type");
  std::string line = type + " " + fields_text(record) + " -> ";
  line += fields.is_null() ? "tombstone" : fields_text(fields);
  return line;
}

// What a key that does not decode shows.
Json undecodable_key(std::optional<protocol::ByteView> key) {
  if (!key) return {{"type", "undecodable"}, {"key", nullptr}};
  return {{"type", "undecodable"}, {"key_bytes", key->size()}};
}

}  // namespace

Json offsets_record_json(std::optional<protocol::ByteView> key,
                         std::optional<protocol::ByteView> value) {
  if (!key) return undecodable_key(key);
  const auto decoded = protocol::CoordinatorRecordKey::decode(*key);
  if (!decoded) return undecodable_key(key);
  Json out = {{"type", protocol::coordinator_record_type_name(decoded->type)},
              {"group", decoded->group_id}};
  switch (decoded->type) {
    case CoordinatorRecordType::kLegacyOffsetCommit:
    case CoordinatorRecordType::kOffsetCommit:
      out["topic"] = decoded->topic;
      out["partition"] = decoded->partition;
      break;
    case CoordinatorRecordType::kConsumerGroupMemberMetadata:
    case CoordinatorRecordType::kConsumerGroupTargetAssignmentMember:
    case CoordinatorRecordType::kConsumerGroupCurrentMemberAssignment:
      out["member"] = decoded->member_id;
      break;
    default:
      break;
  }
  out["value"] = value ? value_json(decoded->type, *value) : Json(nullptr);
  return out;
}

std::string describe_offsets_record(std::optional<protocol::ByteView> key,
                                    std::optional<protocol::ByteView> value) {
  return record_line(offsets_record_json(key, value));
}

Json transactions_record_json(std::optional<protocol::ByteView> key,
                              std::optional<protocol::ByteView> value) {
  if (!key) return undecodable_key(key);
  const auto id = protocol::TransactionLogKey::decode(*key);
  if (!id) return undecodable_key(key);
  return {{"type", "TransactionLog"},
          {"transactional_id", *id},
          {"value", value ? transaction_value_json(*value) : Json(nullptr)}};
}

std::string describe_transactions_record(std::optional<protocol::ByteView> key,
                                         std::optional<protocol::ByteView> value) {
  return record_line(transactions_record_json(key, value));
}

}  // namespace kgroups::cli
