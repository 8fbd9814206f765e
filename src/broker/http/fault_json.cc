// SPDX-License-Identifier: Apache-2.0
#include "broker/http/fault_json.h"

#include <limits>
#include <stdexcept>
#include <string>

#include "broker/handlers/api_table.h"

namespace kgroups::broker {
namespace {

using nlohmann::json;
using protocol::ApiKey;
using protocol::ErrorCode;

constexpr std::string_view kFields[] = {"api",       "error", "latency_ms", "close",      "topic",
                                        "partition", "group", "count",      "coordinator"};

// Longest topic or group filter, so that 1,000 armed faults stay small (Kafka's topic names
// are at most 249 bytes; group ids this long are rare).
constexpr std::size_t kMaxFilterBytes = 4096;

[[noreturn]] void refuse(const std::string& message) { throw std::invalid_argument(message); }

std::int64_t integer_field(const json& body, const char* name, std::int64_t min, std::int64_t max) {
  const json& value = body.at(name);
  if (!value.is_number_integer()) refuse(std::string("\"") + name + "\" must be an integer");
  const auto number = value.get<std::int64_t>();
  if (number < min || number > max) {
    refuse(std::string("\"") + name + "\" must be in " + std::to_string(min) + ".." +
           std::to_string(max) + ", got " + std::to_string(number));
  }
  return number;
}

std::string string_field(const json& body, const char* name) {
  const json& value = body.at(name);
  if (!value.is_string() || value.get<std::string>().empty() ||
      value.get<std::string>().size() > kMaxFilterBytes) {
    refuse(std::string("\"") + name + "\" must be a non-empty string of at most " +
           std::to_string(kMaxFilterBytes) + " bytes");
  }
  return value.get<std::string>();
}

ApiKey parse_api(const json& value) {
  std::optional<ApiKey> key;
  std::string given;
  if (value.is_string()) {
    given = value.get<std::string>();
    key = protocol::api_key_from_name(given);
  } else if (value.is_number_integer()) {
    given = std::to_string(value.get<std::int64_t>());
    const auto number = value.get<std::int64_t>();
    if (number >= 0 && number <= std::numeric_limits<std::int16_t>::max()) {
      key = static_cast<ApiKey>(number);
    }
  } else {
    refuse(R"("api" must be an API name such as "Produce" or a key number)");
  }
  if (!key || find_api(*key) == nullptr) {
    refuse("\"api\": kgroupsd serves no API " + given +
           "; give a name such as \"Produce\" or \"JoinGroup\" (Kafka's names, exact case) or "
           "a key number; docs/PROTOCOL.md lists the APIs served");
  }
  return *key;
}

ErrorCode parse_error(const json& value) {
  if (value.is_string()) {
    const std::string name = value.get<std::string>();
    const std::optional<ErrorCode> code = protocol::error_code_from_name(name);
    if (!code) {
      refuse(R"("error": unknown Kafka error name ")" + name +
             "\"; give a name as in Kafka's protocol guide (e.g. \"NOT_LEADER_OR_FOLLOWER\", "
             "\"COORDINATOR_NOT_AVAILABLE\") or the error's code number");
    }
    if (*code == ErrorCode::kNone) refuse("\"error\": NONE is not an error");
    return *code;
  }
  if (value.is_number_integer()) {
    const auto number = value.get<std::int64_t>();
    if (number == 0 || number < -1 || number > std::numeric_limits<std::int16_t>::max()) {
      refuse("\"error\": " + std::to_string(number) +
             " is not an error code (-1 or 1..32767; 0 means no error)");
    }
    return static_cast<ErrorCode>(number);
  }
  refuse(R"("error" must be a Kafka error name such as "NOT_LEADER_OR_FOLLOWER" or a code)");
}

void parse_filters(const json& body, Fault& fault) {
  if (body.contains("topic")) fault.topic = string_field(body, "topic");
  if (body.contains("partition")) {
    fault.partition = static_cast<std::int32_t>(
        integer_field(body, "partition", 0, std::numeric_limits<std::int32_t>::max()));
  }
  if (body.contains("group")) fault.group = string_field(body, "group");
}

void parse_coordinator(const json& body, Fault& fault) {
  for (const char* field : {"api", "error", "latency_ms", "close", "topic", "partition"}) {
    if (body.contains(field)) {
      refuse(std::string(R"(a "coordinator" fault takes "count" and "group" only, not ")") + field +
             "\"");
    }
  }
  const json& value = body.at("coordinator");
  const std::string kind = value.is_string() ? value.get<std::string>() : std::string();
  if (kind == "unavailable") {
    fault.coordinator = CoordinatorFault::kUnavailable;
  } else if (kind == "moved") {
    fault.coordinator = CoordinatorFault::kMoved;
  } else {
    refuse(R"("coordinator" must be "unavailable" or "moved")");
  }
  fault.action = FaultAction::kError;
  fault.error = fault.answered_error();
}

void parse_api_fault(const json& body, Fault& fault) {
  if (!body.contains("api")) {
    refuse(
        "a fault needs \"api\" (with \"error\", \"latency_ms\" or \"close\") or "
        "\"coordinator\"");
  }
  fault.api = parse_api(body.at("api"));
  const int actions = static_cast<int>(body.contains("error")) +
                      static_cast<int>(body.contains("latency_ms")) +
                      static_cast<int>(body.contains("close"));
  if (actions != 1) {
    refuse(R"(a fault takes exactly one of "error", "latency_ms" and "close")");
  }
  const std::string api_name(protocol::api_name(fault.api));
  if (body.contains("error")) {
    const std::optional<ErrorFaultFilters> filters = error_fault_filters(fault.api);
    if (!filters) {
      refuse("errors cannot be injected into " + api_name + " (latency_ms and close can); " +
             "APIs that take \"error\": " + error_fault_api_names());
    }
    fault.action = FaultAction::kError;
    fault.error = parse_error(body.at("error"));
    if (!filters->topic_partition && (fault.topic || fault.partition)) {
      refuse(api_name + R"( errors take no "topic" or "partition" filter)");
    }
    if (!filters->group && fault.group) refuse(api_name + " errors take no \"group\" filter");
  } else {
    if (fault.topic || fault.partition || fault.group) {
      refuse("latency_ms and close faults take no topic, partition or group filter");
    }
    if (body.contains("latency_ms")) {
      fault.action = FaultAction::kLatency;
      fault.latency_ms =
          static_cast<std::int32_t>(integer_field(body, "latency_ms", 1, kMaxFaultLatencyMs));
    } else {
      if (!body.at("close").is_boolean() || !body.at("close").get<bool>()) {
        refuse("\"close\" must be true");
      }
      fault.action = FaultAction::kClose;
    }
  }
}

}  // namespace

Fault fault_from_json(std::string_view text) {
  const json body = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded()) refuse("the body is not valid JSON");
  if (!body.is_object()) refuse("the body must be a JSON object");
  for (const auto& [name, value] : body.items()) {
    bool known = false;
    for (const std::string_view field : kFields) known = known || field == name;
    if (!known) {
      refuse("unknown field \"" + name +
             "\"; a fault takes api, error, latency_ms, close, topic, partition, group, count "
             "or coordinator");
    }
  }
  Fault fault;
  parse_filters(body, fault);
  if (body.contains("coordinator")) {
    parse_coordinator(body, fault);
  } else {
    parse_api_fault(body, fault);
  }
  if (body.contains("count")) {
    fault.count = integer_field(body, "count", -1, std::numeric_limits<std::int32_t>::max());
    if (fault.count == 0) refuse("\"count\" must be at least 1, or -1 for until deleted");
  }
  fault.remaining = fault.count;
  return fault;
}

json fault_to_json(const Fault& fault) {
  json out;
  out["id"] = fault.id;
  if (fault.coordinator != CoordinatorFault::kNone) {
    out["coordinator"] =
        fault.coordinator == CoordinatorFault::kUnavailable ? "unavailable" : "moved";
    out["error"] = std::string(protocol::error_name(fault.answered_error()));
  } else {
    out["api"] = std::string(protocol::api_name(fault.api));
    out["api_key"] = static_cast<int>(fault.api);
    switch (fault.action) {
      case FaultAction::kError:
        out["error"] = protocol::is_known_error_code(static_cast<std::int16_t>(fault.error))
                           ? json(std::string(protocol::error_name(fault.error)))
                           : json(static_cast<int>(fault.error));
        out["error_code"] = static_cast<int>(fault.error);
        break;
      case FaultAction::kLatency:
        out["latency_ms"] = fault.latency_ms;
        break;
      case FaultAction::kClose:
        out["close"] = true;
        break;
    }
  }
  if (fault.topic) out["topic"] = *fault.topic;
  if (fault.partition) out["partition"] = *fault.partition;
  if (fault.group) out["group"] = *fault.group;
  out["count"] = fault.count;
  out["remaining"] = fault.remaining;
  return out;
}

}  // namespace kgroups::broker
