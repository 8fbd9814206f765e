// SPDX-License-Identifier: Apache-2.0
//
// HttpRequestParser: turns the bytes of one HTTP/1.1 connection into HttpRequests, one at a
// time, with Debian's http-parser (the parser Node.js used for a decade) doing the wire
// format. Of the headers it keeps only those the server acts on: Expect, and Host, Origin and
// Content-Type for the access checks (access_policy.h); one of those sent twice is a 400. It bounds
// what a client can make it hold: a request head (request line and headers) beyond max_head_bytes
// is refused with 431, a body beyond max_body_bytes (by Content-Length, or as chunks arrive) with
// 413; anything http-parser rejects with 400. After an error the connection must be answered and
// closed: the parser accepts nothing more. Not thread-safe: one per connection, on the broker's
// network thread.
#pragma once

#include <http_parser.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "broker/http/http_message.h"

namespace kgroups::broker::http {

struct HttpParserLimits {
  std::size_t max_head_bytes = std::size_t{16} * 1024;    // request line + headers
  std::size_t max_body_bytes = std::size_t{1024} * 1024;  // body, after chunked decoding
};

class HttpRequestParser {
 public:
  explicit HttpRequestParser(HttpParserLimits limits);
  HttpRequestParser(const HttpRequestParser&) = delete;
  HttpRequestParser& operator=(const HttpRequestParser&) = delete;

  // What feed() found.
  enum class Outcome {
    kNeedMore,  // every byte was taken; no request is complete yet
    kRequest,   // a request is complete: take_request(); bytes after it were not taken
    kError,     // bad or too large input: answer error_status() and close
  };
  struct FeedResult {
    Outcome outcome = Outcome::kNeedMore;
    std::size_t consumed = 0;  // bytes of `bytes` taken; feed the rest again later
  };
  // Parses `bytes` up to the end of the next complete request. Once kError is returned, every
  // later call returns it again.
  FeedResult feed(std::string_view bytes);

  // The request feed() completed; then the parser waits for the next one.
  HttpRequest take_request();
  // Whether the connection may serve another request after the one just taken (HTTP/1.1
  // without "Connection: close", or HTTP/1.0 with keep-alive), as http-parser decides.
  [[nodiscard]] bool keep_alive() const { return keep_alive_; }
  // Whether the request being received asked for "Expect: 100-continue" and its head is
  // complete (the server then answers "100 Continue" once, before the body).
  [[nodiscard]] bool expects_continue() const { return expects_continue_ && head_complete_; }
  void continue_sent() { expects_continue_ = false; }
  // Whether bytes of a request have been received and it is not complete yet.
  [[nodiscard]] bool in_request() const { return in_request_; }

  // With kError: the HTTP status to answer (400, 413, 431) and what was wrong.
  [[nodiscard]] int error_status() const { return error_status_; }
  [[nodiscard]] const std::string& error_message() const { return error_message_; }

 private:
  static int on_message_begin(http_parser* parser);
  static int on_url(http_parser* parser, const char* at, std::size_t length);
  static int on_header_field(http_parser* parser, const char* at, std::size_t length);
  static int on_header_value(http_parser* parser, const char* at, std::size_t length);
  static int on_headers_complete(http_parser* parser);
  static int on_body(http_parser* parser, const char* at, std::size_t length);
  static int on_message_complete(http_parser* parser);
  static HttpRequestParser& self(http_parser* parser);

  // Adds `length` bytes to the head; false (with the error set) past max_head_bytes.
  bool grow_head(std::size_t length);
  // The header just received whole (header_field_, header_value_): acts on Expect and keeps
  // Host, Origin and Content-Type in the request. False (with 400 set) for one of those sent
  // twice.
  bool finish_header();
  // Whether the parser keeps the value of the header being received.
  [[nodiscard]] bool keeps_header_value() const;
  void fail(int status, std::string message);

  HttpParserLimits limits_;
  http_parser parser_{};
  http_parser_settings settings_{};
  HttpRequest request_;
  std::string url_;
  std::string header_field_;  // the header being received, lowercased
  std::string header_value_;
  bool in_header_value_ = false;
  std::size_t head_bytes_ = 0;      // of the request being received, as stored
  std::size_t raw_head_bytes_ = 0;  // of its head as received, separators included
  bool in_request_ = false;
  bool head_complete_ = false;
  bool complete_ = false;  // a request waits in request_
  bool keep_alive_ = true;
  bool expects_continue_ = false;
  int error_status_ = 0;
  std::string error_message_;
};

}  // namespace kgroups::broker::http
