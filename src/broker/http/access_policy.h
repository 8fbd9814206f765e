// SPDX-License-Identifier: Apache-2.0
//
// HttpAccessPolicy: the checks that keep the control endpoint safe to run on a developer's
// machine, made before any route runs. A web page the developer visits can make the browser
// send requests to 127.0.0.1, and a DNS name the page's owner controls can be pointed there
// (DNS rebinding); the endpoint arms faults and starts consumers, so:
// - Host: a request whose Host header names neither a loopback name (localhost or a name
//   under .localhost, 127.0.0.0/8, ::1) nor the address the endpoint listens on nor a name
//   given with --http-allow-host is refused with 403 (a rebound page sends its own name).
// - Origin: a request that can change state (POST, PUT, PATCH, DELETE) whose Origin header
//   names a host not allowed the same way (or is "null") is refused with 403: browsers send
//   Origin with every cross-origin request of those methods.
// - Content-Type: a POST, PUT or PATCH must be application/json; the types a page may send to
//   another origin without asking first (text/plain, forms) are refused with 415.
// Requests without Host or Origin (curl with an IP, the bindings, scripts) pass those checks.
// Thread-safe: immutable after construction.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "broker/http/http_message.h"

namespace kgroups::broker::http {

class HttpAccessPolicy {
 public:
  // `served_host`: the address the endpoint listens on (its host part); `allowed_hosts`:
  // further names or addresses clients may use to reach it (--http-allow-host).
  HttpAccessPolicy(std::string_view served_host, const std::vector<std::string>& allowed_hosts);

  // The answer that refuses `request` (403 or 415, saying why and what to do), or nullopt
  // when it may go to its route.
  [[nodiscard]] std::optional<HttpResponse> refusal(const HttpRequest& request) const;

  // Whether `host` (a name or address, without port or brackets) may be used to reach the
  // endpoint. Case-insensitive.
  [[nodiscard]] bool allows_host(std::string_view host) const;

 private:
  std::vector<std::string> allowed_;  // lowercased, beside the loopback names
};

// The host part of a Host header value ("[::1]:8080" -> "::1", "Example:80" -> "Example").
std::string_view host_of_authority(std::string_view authority);

}  // namespace kgroups::broker::http
