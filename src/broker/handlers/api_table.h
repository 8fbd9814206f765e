// SPDX-License-Identifier: Apache-2.0
//
// The API table: the one list of the Kafka APIs kgroupsd serves, each with its version range
// and handler. The connection dispatches through it, ApiVersions answers from it, and
// docs/PROTOCOL.md is generated from it (`kgroupsd --print-protocol-table`), so the three
// cannot disagree. To add an API: write handlers/<api>_handler.cc, declare its function in
// handlers/handlers.h, and add one row to the table in api_table.cc.
// Thread-safe: the table is constant.
#pragma once

#include <asio/awaitable.hpp>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "broker/handlers/request_context.h"
#include "protocol/api_key.h"

namespace kgroups::broker {

// Handles one request. Decodes ctx.body at ctx.version(), which the connection has already
// checked is within the API's range (except for ApiVersions, which answers any version), and
// writes the response body to ctx.response. Returns what the connection should do next.
using Handler = asio::awaitable<Reply> (*)(RequestContext& ctx);

struct ApiEntry {
  protocol::ApiKey key;
  std::int16_t min_version;  // advertised in ApiVersions
  std::int16_t max_version;  // inclusive
  Handler handler;
  std::string_view notes;  // one line for docs/PROTOCOL.md
};

// Every served API, ordered by key.
std::span<const ApiEntry> api_table();

// The row for `key`, or nullptr if kgroupsd does not serve it.
const ApiEntry* find_api(protocol::ApiKey key);

// docs/PROTOCOL.md's table, generated from api_table(), as Markdown.
std::string api_table_markdown();

}  // namespace kgroups::broker
