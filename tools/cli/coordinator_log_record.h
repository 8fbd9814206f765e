// SPDX-License-Identifier: Apache-2.0
//
// One record of a coordinator's internal topic, decoded for `kgroups offsets-log` and
// `kgroups transactions-log`: of __consumer_offsets its key (record type, group, topic and
// partition or member) and its value; of __transaction_state its key (the transactional id)
// and its value (producer id and epoch, timeout, state, partitions, timestamps); a tombstone
// for no value. As one line of text or one JSON object. Keys or values that do not decode are
// shown as such, with their size. Thread-safe: pure functions.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "protocol/byte_view.h"

namespace kgroups::cli {

// `key = value` fields in the record's order, e.g.
// "OffsetCommit group=\"g\" topic=\"t\" partition=0 -> offset=42 leader_epoch=-1
//  metadata=\"\" commit_timestamp_ms=1700000000000 (v3)", or "... -> tombstone".
std::string describe_offsets_record(std::optional<protocol::ByteView> key,
                                    std::optional<protocol::ByteView> value);

// The same as a JSON object: {"type", "group", ... , "value": {...} or null}.
nlohmann::ordered_json offsets_record_json(std::optional<protocol::ByteView> key,
                                           std::optional<protocol::ByteView> value);

// e.g. "TransactionLog transactional_id=\"tx\" -> producer_id=7 producer_epoch=0
//  timeout_ms=60000 state=\"Ongoing\" partitions=[{\"topic\":\"t\",\"partitions\":[0]}]
//  last_update_timestamp_ms=... start_timestamp_ms=... version=0", or "... -> tombstone".
std::string describe_transactions_record(std::optional<protocol::ByteView> key,
                                         std::optional<protocol::ByteView> value);

// The same as a JSON object: {"type": "TransactionLog", "transactional_id", "value": {...} or
// null}.
nlohmann::ordered_json transactions_record_json(std::optional<protocol::ByteView> key,
                                                std::optional<protocol::ByteView> value);

}  // namespace kgroups::cli
