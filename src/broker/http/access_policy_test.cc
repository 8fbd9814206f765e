// SPDX-License-Identifier: Apache-2.0
#include "broker/http/access_policy.h"

#include <gtest/gtest.h>

#include <string>

namespace kgroups::broker::http {
namespace {

HttpRequest request(std::string method, std::optional<std::string> host,
                    std::optional<std::string> origin = std::nullopt,
                    std::optional<std::string> content_type = std::nullopt) {
  HttpRequest out;
  out.method = std::move(method);
  out.path = "/v1/faults";
  out.host = std::move(host);
  out.origin = std::move(origin);
  out.content_type = std::move(content_type);
  return out;
}

int status_of(const HttpAccessPolicy& policy, const HttpRequest& r) {
  const std::optional<HttpResponse> refused = policy.refusal(r);
  return refused ? refused->status : 200;
}

TEST(HostOfAuthority, DropsThePortAndTheBracketsOfAnIpv6Address) {
  EXPECT_EQ(host_of_authority("127.0.0.1:8080"), "127.0.0.1");
  EXPECT_EQ(host_of_authority("[::1]:8080"), "::1");
  EXPECT_EQ(host_of_authority("Localhost"), "Localhost");
  EXPECT_EQ(host_of_authority(" example.org:80 "), "example.org");
}

TEST(HttpAccessPolicy, LoopbackNamesTheServedAddressAndAllowedHostsPassOthersAre403) {
  const HttpAccessPolicy policy("192.168.1.5", {"devbox.lan"});
  for (const char* host : {"127.0.0.1:9", "127.1.2.3", "localhost:9", "LOCALHOST", "[::1]:9",
                           "app.localhost", "192.168.1.5:9", "DevBox.lan"}) {
    EXPECT_EQ(status_of(policy, request("GET", host)), 200) << host;
  }
  for (const char* host : {"evil.example", "evil.example:9", "localhost.evil.example",
                           "127.0.0.1.evil.example", "10.0.0.1", "", "[::2]"}) {
    EXPECT_EQ(status_of(policy, request("GET", host)), 403) << host;
  }
  EXPECT_EQ(status_of(policy, request("GET", std::nullopt)), 200) << "no Host: not a browser";
}

TEST(HttpAccessPolicy, TheRefusalSaysWhichNameAndHowToAllowIt) {
  const HttpAccessPolicy policy("127.0.0.1", {});
  const std::optional<HttpResponse> refused = policy.refusal(request("GET", "evil.example:80"));
  ASSERT_TRUE(refused);
  EXPECT_NE(refused->body.find("evil.example"), std::string::npos);
  EXPECT_NE(refused->body.find("--http-allow-host"), std::string::npos);
}

TEST(HttpAccessPolicy, AStateChangingRequestFromAForeignOriginIs403) {
  const HttpAccessPolicy policy("127.0.0.1", {});
  const std::string json = "application/json";
  EXPECT_EQ(status_of(policy, request("POST", "127.0.0.1:9", "http://127.0.0.1:9", json)), 200);
  EXPECT_EQ(status_of(policy, request("POST", "127.0.0.1:9", "http://evil.example", json)), 403);
  EXPECT_EQ(status_of(policy, request("DELETE", "127.0.0.1:9", "https://evil.example:8443")), 403);
  EXPECT_EQ(status_of(policy, request("POST", "127.0.0.1:9", "null", json)), 403);
  EXPECT_EQ(status_of(policy, request("GET", "127.0.0.1:9", "http://evil.example")), 200)
      << "reading is not refused by Origin (the browser keeps the answer from the page)";
}

TEST(HttpAccessPolicy, APostThatIsNotJsonIs415) {
  const HttpAccessPolicy policy("127.0.0.1", {});
  EXPECT_EQ(status_of(policy, request("POST", "127.0.0.1", std::nullopt, "application/json")), 200);
  EXPECT_EQ(status_of(policy, request("POST", "127.0.0.1", std::nullopt,
                                      "Application/JSON; charset=utf-8")),
            200);
  for (const char* type : {"text/plain", "application/x-www-form-urlencoded",
                           "multipart/form-data; boundary=x", "application/jsonx"}) {
    EXPECT_EQ(status_of(policy, request("POST", "127.0.0.1", std::nullopt, type)), 415) << type;
  }
  EXPECT_EQ(status_of(policy, request("POST", "127.0.0.1")), 415) << "no Content-Type";
  EXPECT_EQ(status_of(policy, request("DELETE", "127.0.0.1")), 200) << "DELETE has no body";
}

}  // namespace
}  // namespace kgroups::broker::http
