// SPDX-License-Identifier: Apache-2.0
#include "broker/http/http_request_parser.h"

#include <gtest/gtest.h>

#include <string>

namespace kgroups::broker::http {
namespace {

using Outcome = HttpRequestParser::Outcome;

TEST(HttpRequestParser, SplitsPathQueryAndBodyOfOneRequest) {
  HttpRequestParser parser({});
  const std::string wire =
      "POST /v1/clock/advance?x=1 HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\n{\"ms\":1000}";
  const auto fed = parser.feed(wire);
  ASSERT_EQ(fed.outcome, Outcome::kRequest);
  EXPECT_EQ(fed.consumed, wire.size());
  const HttpRequest request = parser.take_request();
  EXPECT_EQ(request.method, "POST");
  EXPECT_EQ(request.path, "/v1/clock/advance");
  EXPECT_EQ(request.query, "x=1");
  EXPECT_EQ(request.body, "{\"ms\":1000}");
  EXPECT_TRUE(parser.keep_alive());
}

TEST(HttpRequestParser, StopsAfterEachPipelinedRequestAndResumesWithTheRest) {
  HttpRequestParser parser({});
  std::string wire = "GET /a HTTP/1.1\r\n\r\nGET /b HTTP/1.1\r\nConnection: close\r\n\r\n";
  auto fed = parser.feed(wire);
  ASSERT_EQ(fed.outcome, Outcome::kRequest);
  EXPECT_EQ(parser.take_request().path, "/a");
  EXPECT_TRUE(parser.keep_alive());
  wire.erase(0, fed.consumed);
  fed = parser.feed(wire);
  ASSERT_EQ(fed.outcome, Outcome::kRequest);
  EXPECT_EQ(parser.take_request().path, "/b");
  EXPECT_FALSE(parser.keep_alive());
}

TEST(HttpRequestParser, AssemblesARequestFedOneByteAtATime) {
  HttpRequestParser parser({});
  const std::string wire = "DELETE /v1/faults/3 HTTP/1.1\r\nContent-Length: 2\r\n\r\nok";
  for (std::size_t i = 0; i + 1 < wire.size(); ++i) {
    const auto fed = parser.feed(wire.substr(i, 1));
    ASSERT_EQ(fed.outcome, Outcome::kNeedMore) << "at byte " << i;
    ASSERT_EQ(fed.consumed, 1U);
    EXPECT_TRUE(parser.in_request());
  }
  ASSERT_EQ(parser.feed(wire.substr(wire.size() - 1)).outcome, Outcome::kRequest);
  const HttpRequest request = parser.take_request();
  EXPECT_EQ(request.method, "DELETE");
  EXPECT_EQ(request.body, "ok");
}

TEST(HttpRequestParser, HeadBeyondTheLimitIs431) {
  HttpRequestParser parser({.max_head_bytes = 1024, .max_body_bytes = 1024});
  const std::string wire = "GET / HTTP/1.1\r\nX-Big: " + std::string(2000, 'a') + "\r\n\r\n";
  EXPECT_EQ(parser.feed(wire).outcome, Outcome::kError);
  EXPECT_EQ(parser.error_status(), 431);
  EXPECT_EQ(parser.feed("GET / HTTP/1.1\r\n\r\n").outcome, Outcome::kError);
}

TEST(HttpRequestParser, HeadDribbledInSmallPiecesBeyondTheLimitIs431) {
  HttpRequestParser parser({.max_head_bytes = 256, .max_body_bytes = 1024});
  ASSERT_EQ(parser.feed("GET / HTTP/1.1\r\n").outcome, Outcome::kNeedMore);
  Outcome outcome = Outcome::kNeedMore;
  for (int i = 0; i < 100 && outcome == Outcome::kNeedMore; ++i) {
    outcome = parser.feed("X-A: b\r\n").outcome;
  }
  EXPECT_EQ(outcome, Outcome::kError);
  EXPECT_EQ(parser.error_status(), 431);
}

TEST(HttpRequestParser, ContentLengthBeyondTheLimitIs413BeforeTheBodyArrives) {
  HttpRequestParser parser({.max_head_bytes = 1024, .max_body_bytes = 100});
  EXPECT_EQ(parser.feed("POST /v1/faults HTTP/1.1\r\nContent-Length: 101\r\n\r\n").outcome,
            Outcome::kError);
  EXPECT_EQ(parser.error_status(), 413);
}

TEST(HttpRequestParser, ChunkedBodyBeyondTheLimitIs413) {
  HttpRequestParser parser({.max_head_bytes = 1024, .max_body_bytes = 8});
  const std::string wire =
      "POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n5\r\nworld\r\n0\r\n\r\n";
  EXPECT_EQ(parser.feed(wire).outcome, Outcome::kError);
  EXPECT_EQ(parser.error_status(), 413);
}

TEST(HttpRequestParser, GarbageIs400) {
  HttpRequestParser parser({});
  EXPECT_EQ(parser.feed(std::string("\x00\x01\x02 not http\r\n\r\n", 16)).outcome, Outcome::kError);
  EXPECT_EQ(parser.error_status(), 400);
  EXPECT_FALSE(parser.error_message().empty());
}

TEST(HttpRequestParser, ExpectContinueIsReportedOnceTheHeadIsComplete) {
  HttpRequestParser parser({});
  ASSERT_EQ(
      parser.feed("POST /x HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n").outcome,
      Outcome::kNeedMore);
  EXPECT_TRUE(parser.expects_continue());
  parser.continue_sent();
  EXPECT_FALSE(parser.expects_continue());
  EXPECT_EQ(parser.feed("{}").outcome, Outcome::kRequest);
}

TEST(HttpRequestParser, Http10WithoutKeepAliveClosesAfterTheRequest) {
  HttpRequestParser parser({});
  ASSERT_EQ(parser.feed("GET /v1 HTTP/1.0\r\n\r\n").outcome, Outcome::kRequest);
  EXPECT_FALSE(parser.keep_alive());
}

TEST(HttpRequestParser, KeepsHostOriginAndContentTypeAndRefusesOneSentTwice) {
  HttpRequestParser parser(HttpParserLimits{});
  ASSERT_EQ(parser
                .feed("POST /v1 HTTP/1.1\r\nHost: 127.0.0.1:9\r\nOrigin: http://x\r\n"
                      "Content-Type: application/json\r\nContent-Length: 0\r\n\r\n")
                .outcome,
            Outcome::kRequest);
  const HttpRequest request = parser.take_request();
  EXPECT_EQ(request.host, "127.0.0.1:9");
  EXPECT_EQ(request.origin, "http://x");
  EXPECT_EQ(request.content_type, "application/json");

  HttpRequestParser twice(HttpParserLimits{});
  EXPECT_EQ(twice.feed("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n").outcome,
            Outcome::kError);
  EXPECT_EQ(twice.error_status(), 400);
  EXPECT_NE(twice.error_message().find("host header is sent twice"), std::string::npos)
      << twice.error_message();
}

}  // namespace
}  // namespace kgroups::broker::http
