// SPDX-License-Identifier: Apache-2.0
//
// The limit table: every bound on what clients can make kgroupsd spend (memory, connections,
// work, metadata), each with its command-line flag, its BrokerConfig field, its default, its
// Kafka equivalent and what a client sees when it is exceeded. kgroupsd registers its limit
// flags from this table, and docs/LIMITS.md's table is generated from it
// (`kgroupsd --print-limits-table`), so the flags and the docs cannot disagree.
// Thread-safe: the table is constant.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "broker/config/broker_config.h"

namespace kgroups::broker {

enum class LimitUnit {
  kCount,         // a plain number
  kBytes,         // bytes; the flag also takes units: 64KiB, 512MiB, 2GiB (or K, M, G)
  kMilliseconds,  // milliseconds
};

using LimitField = std::variant<std::int32_t BrokerConfig::*, std::int64_t BrokerConfig::*>;

struct LimitEntry {
  std::string_view flag;  // e.g. "--max-connections"
  LimitField field;       // the BrokerConfig member the flag sets
  LimitUnit unit;
  std::int64_t min_value;  // smallest accepted value (-1 where "no limit" is allowed)
  std::int64_t max_value;
  std::string_view default_text;  // the default, as docs/LIMITS.md shows it
  std::string_view kafka;         // Kafka's setting and its default, or "none"
  std::string_view bounds;        // what the limit bounds and what a client sees beyond it
};

// Every limit, grouped as docs/LIMITS.md lists them.
std::span<const LimitEntry> limit_table();

// docs/LIMITS.md's table, generated from limit_table(), as Markdown.
std::string limit_table_markdown();

}  // namespace kgroups::broker
