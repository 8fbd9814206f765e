// SPDX-License-Identifier: Apache-2.0
#include "broker/http/access_policy.h"

#include <algorithm>
#include <cctype>

#include <asio/ip/address.hpp>

#include "broker/runtime/ascii_case.h"

namespace kgroups::broker::http {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

bool is_loopback(std::string_view host) {
  if (host == "localhost" || (host.size() > 10 && host.ends_with(".localhost"))) return true;
  std::error_code error;
  const asio::ip::address address = asio::ip::make_address(std::string(host), error);
  return !error && address.is_loopback();
}

bool changes_state(std::string_view method) {
  return method == "POST" || method == "PUT" || method == "PATCH" || method == "DELETE";
}

bool carries_body(std::string_view method) {
  return method == "POST" || method == "PUT" || method == "PATCH";
}

// The host of an Origin value ("http://127.0.0.1:8080" -> "127.0.0.1"); nullopt for "null"
// or a value that is not scheme://authority.
std::optional<std::string_view> origin_host(std::string_view origin) {
  const std::size_t scheme_end = origin.find("://");
  if (scheme_end == std::string_view::npos) return std::nullopt;
  std::string_view authority = origin.substr(scheme_end + 3);
  authority = authority.substr(0, authority.find('/'));
  if (authority.empty()) return std::nullopt;
  return host_of_authority(authority);
}

}  // namespace

std::string_view host_of_authority(std::string_view authority) {
  authority = trim(authority);
  if (authority.starts_with('[')) {
    const std::size_t close = authority.find(']');
    return close == std::string_view::npos ? authority : authority.substr(1, close - 1);
  }
  return authority.substr(0, authority.find(':'));
}

HttpAccessPolicy::HttpAccessPolicy(std::string_view served_host,
                                   const std::vector<std::string>& allowed_hosts) {
  allowed_.push_back(ascii_lowercase(host_of_authority(served_host)));
  for (const std::string& host : allowed_hosts)
    allowed_.push_back(ascii_lowercase(host_of_authority(host)));
}

bool HttpAccessPolicy::allows_host(std::string_view host) const {
  const std::string name = ascii_lowercase(host);
  if (name.empty()) return false;
  return is_loopback(name) || std::find(allowed_.begin(), allowed_.end(), name) != allowed_.end();
}

std::optional<HttpResponse> HttpAccessPolicy::refusal(const HttpRequest& request) const {
  if (request.host && !allows_host(host_of_authority(*request.host))) {
    return HttpResponse::error(
        403, "the Host header names \"" + std::string(host_of_authority(*request.host)) +
                 "\", which is not an address of this endpoint: requests through other names "
                 "are refused (DNS rebinding). Use 127.0.0.1 or localhost, or start kgroupsd "
                 "with --http-allow-host " +
                 std::string(host_of_authority(*request.host)));
  }
  if (!changes_state(request.method)) return std::nullopt;
  if (request.origin) {
    const std::optional<std::string_view> host = origin_host(trim(*request.origin));
    if (!host || !allows_host(*host)) {
      return HttpResponse::error(
          403, "a " + request.method + " from the web page at " + *request.origin +
                   " is refused: only pages served by this endpoint (the console) may change "
                   "kgroupsd's state from a browser");
    }
  }
  if (carries_body(request.method)) {
    const std::string type = request.content_type
                                 ? ascii_lowercase(trim(request.content_type->substr(
                                       0, request.content_type->find(';'))))
                                 : std::string();
    if (type != "application/json") {
      return HttpResponse::error(
          415, "a " + request.method +
                   " must send its body as JSON with \"Content-Type: "
                   "application/json\"" +
                   (request.content_type ? " (it said \"" + *request.content_type + "\")"
                                         : std::string(" (it sent no Content-Type)")));
    }
  }
  return std::nullopt;
}

}  // namespace kgroups::broker::http
