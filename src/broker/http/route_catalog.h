// SPDX-License-Identifier: Apache-2.0
//
// The route catalog: every route of the HTTP endpoint described once — method, path pattern
// (HttpRouter's syntax), the one-line summary GET /v1 lists and the text of
// docs/HTTP-API.md's endpoint table, which is generated from it
// (`kgroupsd --print-http-routes-table`). The areas' add_*_routes functions attach the
// handlers; a test checks that build_http_routes serves exactly the catalog's routes and
// another that the docs hold the generated table, so the list, the served routes and the
// docs cannot disagree.
// Thread-safe: constant data.
#pragma once

#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

namespace kgroups::broker::http {

struct RouteDescription {
  std::string_view method;         // "GET", "POST", "PUT", "DELETE"
  std::string_view pattern;        // as HttpRouter::add takes it: "/v1/groups/{id}"
  std::string_view summary;        // what GET /v1 says of it
  std::string_view documentation;  // docs/HTTP-API.md's "What it does" (Markdown)
};

// Every route, in the order GET /v1 and the docs list them.
std::span<const RouteDescription> route_catalog();

// "GET /console/{path}": the method and the pattern as clients write it.
std::string shown_route(const RouteDescription& route);

// GET /v1's answer: {"version": "v1", "endpoints": [{"route", "what"}, ...]}.
nlohmann::json route_catalog_json();

// docs/HTTP-API.md's endpoint table, as Markdown.
std::string route_catalog_markdown();

}  // namespace kgroups::broker::http
