// SPDX-License-Identifier: Apache-2.0
#include "broker/http/http_router.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace kgroups::broker::http {
namespace {

HttpRequest request(std::string method, std::string path, std::string query = {}) {
  HttpRequest r;
  r.method = std::move(method);
  r.path = std::move(path);
  r.query = std::move(query);
  return r;
}

HttpResponse echo_params(const HttpRequest& r) {
  HttpResponse response;
  for (const std::string& param : r.path_params) response.body += "[" + param + "]";
  return response;
}

TEST(HttpRouter, MatchesLiteralAndParameterSegmentsAndDecodesParameters) {
  HttpRouter router;
  router.add("GET", "/v1/groups", [](const HttpRequest&) {
    HttpResponse response;
    response.body = "list";
    return response;
  });
  router.add("GET", "/v1/groups/{id}", echo_params);
  router.add("GET", "/v1/topics/{name}/partitions/{p}", echo_params);

  HttpRequest list = request("GET", "/v1/groups");
  EXPECT_EQ(router.dispatch(list).response.body, "list");
  HttpRequest one = request("GET", "/v1/groups/my%20group%2Fa");
  EXPECT_EQ(router.dispatch(one).response.body, "[my group/a]");
  HttpRequest two = request("GET", "/v1/topics/orders/partitions/3");
  EXPECT_EQ(router.dispatch(two).response.body, "[orders][3]");
}

TEST(HttpRouter, RestParameterMatchesOneOrMoreTrailingSegments) {
  HttpRouter router;
  router.add("GET", "/console/{path...}", echo_params);

  HttpRequest one = request("GET", "/console/index.html");
  EXPECT_EQ(router.dispatch(one).response.body, "[index.html]");
  HttpRequest nested = request("GET", "/console/js/main%20x.js");
  EXPECT_EQ(router.dispatch(nested).response.body, "[js/main x.js]");
  HttpRequest none = request("GET", "/console");
  EXPECT_EQ(router.dispatch(none).response.status, 404);
  HttpRequest other = request("GET", "/elsewhere/index.html");
  EXPECT_EQ(router.dispatch(other).response.status, 404);
}

TEST(HttpRouter, UnknownPathIs404AndWrongMethodIs405WithAllow) {
  HttpRouter router;
  router.add("GET", "/v1/faults", [](const HttpRequest&) { return HttpResponse{}; });
  router.add("POST", "/v1/faults", [](const HttpRequest&) { return HttpResponse{}; });

  HttpRequest missing = request("GET", "/v1/nothing");
  EXPECT_EQ(router.dispatch(missing).response.status, 404);
  HttpRequest wrong = request("PUT", "/v1/faults");
  const HttpResponse answer = router.dispatch(wrong).response;
  EXPECT_EQ(answer.status, 405);
  ASSERT_EQ(answer.headers.size(), 1U);
  EXPECT_EQ(answer.headers[0].second, "GET, POST");
}

TEST(HttpRouter, InvalidArgumentFromAHandlerIs400WithItsMessage) {
  HttpRouter router;
  router.add("POST", "/v1/clock/advance", [](const HttpRequest&) -> HttpResponse {
    throw std::invalid_argument("ms must be a non-negative integer");
  });
  HttpRequest bad = request("POST", "/v1/clock/advance");
  const HttpResponse answer = router.dispatch(bad).response;
  EXPECT_EQ(answer.status, 400);
  EXPECT_NE(answer.body.find("ms must be a non-negative integer"), std::string::npos);
}

TEST(HttpRouter, StreamRoutesAreReturnedNotCalled) {
  HttpRouter router;
  int calls = 0;
  router.add_stream("GET", "/v1/events",
                    [&calls](const HttpRequest&, std::shared_ptr<HttpStream>) { ++calls; });
  HttpRequest events = request("GET", "/v1/events");
  const HttpRouter::Match match = router.dispatch(events);
  ASSERT_NE(match.stream, nullptr);
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(match.response.content_type, "text/event-stream");
}

TEST(HttpRequest, QueryParamDecodesAndFallsBack) {
  const HttpRequest r = request("GET", "/v1/events", "group=a%20b&since=5&flag");
  EXPECT_EQ(r.query_param("group"), "a b");
  EXPECT_EQ(r.query_param("since"), "5");
  EXPECT_EQ(r.query_param("flag"), "");
  EXPECT_EQ(r.query_param("missing", "x"), "x");
}

}  // namespace
}  // namespace kgroups::broker::http
