// SPDX-License-Identifier: Apache-2.0
#include "broker/http/http_request_parser.h"

#include <cctype>
#include <limits>
#include <utility>

#include "broker/runtime/ascii_case.h"

namespace kgroups::broker::http {
namespace {

constexpr std::size_t kHeaderOverheadBytes = 4;  // ": " and CRLF around each header

}  // namespace

HttpRequestParser::HttpRequestParser(HttpParserLimits limits) : limits_(limits) {
  http_parser_init(&parser_, HTTP_REQUEST);
  parser_.data = this;
  http_parser_settings_init(&settings_);
  settings_.on_message_begin = &HttpRequestParser::on_message_begin;
  settings_.on_url = &HttpRequestParser::on_url;
  settings_.on_header_field = &HttpRequestParser::on_header_field;
  settings_.on_header_value = &HttpRequestParser::on_header_value;
  settings_.on_headers_complete = &HttpRequestParser::on_headers_complete;
  settings_.on_body = &HttpRequestParser::on_body;
  settings_.on_message_complete = &HttpRequestParser::on_message_complete;
}

HttpRequestParser& HttpRequestParser::self(http_parser* parser) {
  return *static_cast<HttpRequestParser*>(parser->data);
}

void HttpRequestParser::fail(int status, std::string message) {
  if (error_status_ != 0) return;
  error_status_ = status;
  error_message_ = std::move(message);
}

bool HttpRequestParser::grow_head(std::size_t length) {
  head_bytes_ += length;
  if (head_bytes_ <= limits_.max_head_bytes) return true;
  fail(431, "the request line and headers are over " + std::to_string(limits_.max_head_bytes) +
                " bytes (--http-max-head-bytes)");
  return false;
}

HttpRequestParser::FeedResult HttpRequestParser::feed(std::string_view bytes) {
  if (error_status_ != 0) return {Outcome::kError, 0};
  if (HTTP_PARSER_ERRNO(&parser_) == HPE_PAUSED) http_parser_pause(&parser_, 0);
  if (bytes.empty()) return {Outcome::kNeedMore, 0};
  if (!in_request_ || head_complete_) raw_head_bytes_ = 0;
  const std::size_t consumed =
      http_parser_execute(&parser_, &settings_, bytes.data(), bytes.size());
  if (error_status_ != 0) return {Outcome::kError, consumed};
  const http_errno error = HTTP_PARSER_ERRNO(&parser_);
  if (complete_) return {Outcome::kRequest, consumed};
  if (error != HPE_OK && error != HPE_PAUSED) {
    if (error == HPE_HEADER_OVERFLOW) {
      fail(431, "the request line and headers are too large");
    } else {
      fail(400, std::string("malformed HTTP request: ") + http_errno_description(error));
    }
    return {Outcome::kError, consumed};
  }
  // Bytes between the headers (separators, line ends) count towards the head too.
  if (in_request_ && !head_complete_) raw_head_bytes_ += consumed;
  if (raw_head_bytes_ > limits_.max_head_bytes) {
    fail(431, "the request line and headers are over " + std::to_string(limits_.max_head_bytes) +
                  " bytes (--http-max-head-bytes)");
    return {Outcome::kError, consumed};
  }
  return {Outcome::kNeedMore, consumed};
}

HttpRequest HttpRequestParser::take_request() {
  HttpRequest request = std::move(request_);
  request_ = HttpRequest{};
  complete_ = false;
  return request;
}

int HttpRequestParser::on_message_begin(http_parser* parser) {
  HttpRequestParser& p = self(parser);
  p.request_ = HttpRequest{};
  p.url_.clear();
  p.header_field_.clear();
  p.header_value_.clear();
  p.in_header_value_ = false;
  p.head_bytes_ = 0;
  p.in_request_ = true;
  p.head_complete_ = false;
  p.expects_continue_ = false;
  return 0;
}

int HttpRequestParser::on_url(http_parser* parser, const char* at, std::size_t length) {
  HttpRequestParser& p = self(parser);
  if (!p.grow_head(length)) return 1;
  p.url_.append(at, length);
  return 0;
}

bool HttpRequestParser::keeps_header_value() const {
  return header_field_ == "expect" || header_field_ == "host" || header_field_ == "origin" ||
         header_field_ == "content-type";
}

bool HttpRequestParser::finish_header() {
  std::optional<std::string>* kept = nullptr;
  if (header_field_ == "expect") {
    if (ascii_lowercase(header_value_) == "100-continue") expects_continue_ = true;
  } else if (header_field_ == "host") {
    kept = &request_.host;
  } else if (header_field_ == "origin") {
    kept = &request_.origin;
  } else if (header_field_ == "content-type") {
    kept = &request_.content_type;
  }
  if (kept != nullptr) {
    if (kept->has_value()) {
      fail(400, "the " + header_field_ + " header is sent twice; send it once");
      return false;
    }
    *kept = std::move(header_value_);
  }
  header_field_.clear();
  header_value_.clear();
  in_header_value_ = false;
  return true;
}

int HttpRequestParser::on_header_field(http_parser* parser, const char* at, std::size_t length) {
  HttpRequestParser& p = self(parser);
  if (p.in_header_value_ && !p.finish_header()) return 1;  // the previous header is whole
  if (!p.grow_head(length + (p.header_field_.empty() ? kHeaderOverheadBytes : 0))) return 1;
  p.header_field_ += ascii_lowercase(std::string_view(at, length));
  return 0;
}

int HttpRequestParser::on_header_value(http_parser* parser, const char* at, std::size_t length) {
  HttpRequestParser& p = self(parser);
  if (!p.grow_head(length)) return 1;
  p.in_header_value_ = true;
  // Only the values the parser acts on are kept (within the head's bound).
  if (p.keeps_header_value()) p.header_value_.append(at, length);
  return 0;
}

int HttpRequestParser::on_headers_complete(http_parser* parser) {
  HttpRequestParser& p = self(parser);
  if (p.in_header_value_ && !p.finish_header()) return 1;
  p.head_complete_ = true;
  if (parser->method == HTTP_CONNECT) {
    p.fail(400, "CONNECT is not served: this is kgroupsd's control endpoint, not a proxy");
    return 1;
  }
  http_parser_url url{};
  http_parser_url_init(&url);
  if (http_parser_parse_url(p.url_.data(), p.url_.size(), 0, &url) != 0) {
    p.fail(400, "malformed request target; send a path such as /v1/groups");
    return 1;
  }
  if ((url.field_set & (1U << UF_PATH)) != 0) {
    p.request_.path = p.url_.substr(url.field_data[UF_PATH].off, url.field_data[UF_PATH].len);
  } else {
    p.request_.path = "/";
  }
  if ((url.field_set & (1U << UF_QUERY)) != 0) {
    p.request_.query = p.url_.substr(url.field_data[UF_QUERY].off, url.field_data[UF_QUERY].len);
  }
  p.request_.method = http_method_str(static_cast<http_method>(parser->method));
  const bool has_length = (parser->flags & F_CONTENTLENGTH) != 0;
  if (has_length && parser->content_length > p.limits_.max_body_bytes) {
    p.fail(413, "the request body of " + std::to_string(parser->content_length) +
                    " bytes is over " + std::to_string(p.limits_.max_body_bytes) +
                    " bytes (--http-max-body-bytes)");
    return 1;
  }
  if (has_length) p.request_.body.reserve(static_cast<std::size_t>(parser->content_length));
  return 0;
}

int HttpRequestParser::on_body(http_parser* parser, const char* at, std::size_t length) {
  HttpRequestParser& p = self(parser);
  if (p.request_.body.size() + length > p.limits_.max_body_bytes) {
    p.fail(413, "the request body is over " + std::to_string(p.limits_.max_body_bytes) +
                    " bytes (--http-max-body-bytes)");
    return 1;
  }
  p.request_.body.append(at, length);
  return 0;
}

int HttpRequestParser::on_message_complete(http_parser* parser) {
  HttpRequestParser& p = self(parser);
  p.complete_ = true;
  p.in_request_ = false;
  p.head_complete_ = false;
  p.expects_continue_ = false;
  p.keep_alive_ = http_should_keep_alive(parser) != 0 && parser->upgrade == 0;
  // Stop after this request: the server answers it before parsing the next.
  http_parser_pause(parser, 1);
  return 0;
}

}  // namespace kgroups::broker::http
