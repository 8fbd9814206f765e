// SPDX-License-Identifier: Apache-2.0
#include "broker/http/http_router.h"

#include <exception>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

namespace kgroups::broker::http {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Decodes %XX escapes (and '+' as a space when `plus_is_space`); a malformed escape stays as
// written.
std::string percent_decode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%' && i + 2 < text.size()) {
      const int high = hex_value(text[i + 1]);
      const int low = hex_value(text[i + 2]);
      if (high >= 0 && low >= 0) {
        out.push_back(static_cast<char>(high * 16 + low));
        i += 2;
        continue;
      }
    }
    out.push_back(plus_is_space && c == '+' ? ' ' : c);
  }
  return out;
}

// Splits "/a/b/c" into its segments, without empty ones.
std::vector<std::string_view> split_path(std::string_view path) {
  std::vector<std::string_view> segments;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    if (end > start) segments.push_back(path.substr(start, end - start));
    start = end + 1;
  }
  return segments;
}

}  // namespace

std::string HttpRequest::query_param(std::string_view name, std::string_view fallback) const {
  std::string_view rest = query;
  while (!rest.empty()) {
    std::size_t amp = rest.find('&');
    const std::string_view pair = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view{} : rest.substr(amp + 1);
    const std::size_t eq = pair.find('=');
    const std::string key = percent_decode(pair.substr(0, eq), true);
    if (key != name) continue;
    return eq == std::string_view::npos ? std::string{} : percent_decode(pair.substr(eq + 1), true);
  }
  return std::string(fallback);
}

HttpResponse HttpResponse::error(int status, std::string_view message) {
  HttpResponse response;
  response.status = status;
  response.body = nlohmann::json{{"error", {{"status", status}, {"message", message}}}}.dump(
      -1, ' ', false, nlohmann::json::error_handler_t::replace);
  return response;
}

HttpResponse HttpResponse::json(const nlohmann::ordered_json& body, int status) {
  HttpResponse response;
  response.status = status;
  response.body = body.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  return response;
}

std::vector<std::string> HttpRouter::split_pattern(std::string_view pattern) {
  std::vector<std::string> segments;
  for (std::string_view segment : split_path(pattern)) {
    const bool parameter = segment.size() >= 2 && segment.front() == '{' && segment.back() == '}';
    const bool rest = parameter && segment.ends_with("...}");
    segments.emplace_back(rest ? std::string_view("{...}")
                               : (parameter ? std::string_view("{}") : segment));
  }
  return segments;
}

void HttpRouter::add(std::string_view method, std::string_view pattern, Handler handler) {
  routes_.push_back(Route{std::string(method), std::string(pattern), split_pattern(pattern),
                          std::move(handler), StreamHandler{}});
}

void HttpRouter::add_stream(std::string_view method, std::string_view pattern,
                            StreamHandler handler) {
  routes_.push_back(Route{std::string(method), std::string(pattern), split_pattern(pattern),
                          Handler{}, std::move(handler)});
}

std::vector<std::string> HttpRouter::route_names() const {
  std::vector<std::string> names;
  names.reserve(routes_.size());
  for (const Route& route : routes_) names.push_back(route.method + " " + route.pattern);
  return names;
}

bool HttpRouter::matches(const Route& route, std::string_view path,
                         std::vector<std::string>& params) {
  const std::vector<std::string_view> segments = split_path(path);
  const bool rest = !route.segments.empty() && route.segments.back() == "{...}";
  if (rest ? segments.size() < route.segments.size() : segments.size() != route.segments.size()) {
    return false;
  }
  params.clear();
  for (std::size_t i = 0; i < segments.size(); ++i) {
    if (rest && i + 1 == route.segments.size()) {
      std::string joined;
      for (std::size_t j = i; j < segments.size(); ++j) {
        joined += j == i ? "" : "/";
        joined += percent_decode(segments[j], false);
      }
      params.push_back(std::move(joined));
      return true;
    }
    if (route.segments[i] == "{}") {
      params.push_back(percent_decode(segments[i], false));
    } else if (route.segments[i] != segments[i]) {
      return false;
    }
  }
  return true;
}

HttpRouter::Match HttpRouter::dispatch(HttpRequest& request) const {
  Match match;
  std::string allowed;
  std::vector<std::string> params;
  for (const Route& route : routes_) {
    if (!matches(route, request.path, params)) continue;
    if (route.method != request.method) {
      if (allowed.find(route.method) == std::string::npos) {
        allowed += allowed.empty() ? "" : ", ";
        allowed += route.method;
      }
      continue;
    }
    request.path_params = std::move(params);
    if (route.stream) {
      match.stream = &route.stream;
      match.response.content_type = "text/event-stream";
      return match;
    }
    try {
      match.response = route.handler(request);
    } catch (const std::invalid_argument& e) {
      match.response = HttpResponse::error(400, e.what());
    } catch (const std::exception& e) {
      match.response = HttpResponse::error(500, std::string("internal error: ") + e.what());
    }
    return match;
  }
  if (!allowed.empty()) {
    match.response = HttpResponse::error(
        405, request.method + " is not allowed on " + request.path + "; use " + allowed);
    match.response.headers.emplace_back("Allow", allowed);
    return match;
  }
  match.response = HttpResponse::error(
      404, "no such endpoint: " + request.path + "; GET /v1 lists the endpoints");
  return match;
}

}  // namespace kgroups::broker::http
