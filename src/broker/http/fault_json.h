// SPDX-License-Identifier: Apache-2.0
//
// The JSON form of a Fault, as POST /v1/faults takes it and GET /v1/faults shows it
// (docs/HTTP-API.md, "Faults").
// Thread-safe: functions of their arguments only.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "broker/faults/fault.h"

namespace kgroups::broker {

// Longest latency a fault may add, in milliseconds.
inline constexpr std::int32_t kMaxFaultLatencyMs = 300'000;

// The fault `body` describes, validated: the API (a name like "Produce" or a key number), one
// action ("error" as a Kafka error name or code, "latency_ms", or "close": true) or a
// "coordinator" fault, the filters the API takes, and "count". Throws std::invalid_argument
// saying what is wrong and what is accepted; unknown fields are refused too.
Fault fault_from_json(std::string_view body);

// `fault` with its id and remaining count.
nlohmann::json fault_to_json(const Fault& fault);

}  // namespace kgroups::broker
