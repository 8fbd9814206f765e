// SPDX-License-Identifier: Apache-2.0
//
// add_console_routes: the web console's routes (docs/HTTP-API.md, "Console"): GET / answers
// console/index.html and GET /console/{path...} any embedded console file, with its
// Content-Type and Cache-Control: no-cache; the HTML also carries a Content-Security-Policy
// that allows only this server's own scripts, styles and connections. An unknown file answers
// the API's 404 JSON error.
// Not thread-safe: build the router before the server starts.
#pragma once

#include <string_view>

#include "broker/http/http_router.h"

namespace kgroups::broker::http {

void add_console_routes(HttpRouter& router);

// The Content-Type of a console file, by its extension ("application/octet-stream" when it
// has none that the console uses).
std::string_view console_content_type(std::string_view path);

}  // namespace kgroups::broker::http
