// SPDX-License-Identifier: Apache-2.0
//
// ConsoleAsset: one file of the web console (the repository's console/ folder), embedded in
// the binary at build time by cmake/kgroups_embed_console.cmake, which writes the definition
// of console_assets() into the build tree. console_routes.h serves them.
// Thread-safe: the assets are constants.
#pragma once

#include <span>
#include <string_view>

namespace kgroups::broker::http {

struct ConsoleAsset {
  std::string_view path;   // relative to console/, '/'-separated: "js/main.js"
  std::string_view bytes;  // the file's contents as they were at build time
};

// Every console file, sorted by path.
std::span<const ConsoleAsset> console_assets();

}  // namespace kgroups::broker::http
