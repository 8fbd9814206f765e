// SPDX-License-Identifier: Apache-2.0
#include "broker/http/console_routes.h"

#include <string>

#include "broker/http/console_assets.h"

namespace kgroups::broker::http {
namespace {

constexpr std::string_view kIndexPath = "index.html";
// Only the console's own files: no inline script or style, no other origin.
constexpr std::string_view kContentSecurityPolicy =
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'";

const ConsoleAsset* find_asset(std::string_view path) {
  for (const ConsoleAsset& asset : console_assets()) {
    if (asset.path == path) return &asset;
  }
  return nullptr;
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

HttpResponse asset_response(const ConsoleAsset& asset) {
  HttpResponse response;
  response.content_type = std::string(console_content_type(asset.path));
  response.body = std::string(asset.bytes);
  response.headers.emplace_back("Cache-Control", "no-cache");
  response.headers.emplace_back("X-Content-Type-Options", "nosniff");
  if (ends_with(asset.path, ".html")) {
    response.headers.emplace_back("Content-Security-Policy", std::string(kContentSecurityPolicy));
  }
  return response;
}

}  // namespace

std::string_view console_content_type(std::string_view path) {
  if (ends_with(path, ".html")) return "text/html; charset=utf-8";
  if (ends_with(path, ".css")) return "text/css; charset=utf-8";
  if (ends_with(path, ".js") || ends_with(path, ".mjs")) return "text/javascript; charset=utf-8";
  if (ends_with(path, ".svg")) return "image/svg+xml";
  if (ends_with(path, ".png")) return "image/png";
  if (ends_with(path, ".json")) return "application/json";
  return "application/octet-stream";
}

void add_console_routes(HttpRouter& router) {
  router.add("GET", "/", [](const HttpRequest&) {
    const ConsoleAsset* index = find_asset(kIndexPath);
    if (index == nullptr)
      return HttpResponse::error(404, "this kgroupsd was built without a console");
    return asset_response(*index);
  });
  router.add("GET", "/console/{path...}", [](const HttpRequest& request) {
    const ConsoleAsset* asset = find_asset(request.path_params[0]);
    if (asset == nullptr) {
      return HttpResponse::error(
          404, "no console file \"" + request.path_params[0] + "\"; GET / opens the console");
    }
    return asset_response(*asset);
  });
}

}  // namespace kgroups::broker::http
