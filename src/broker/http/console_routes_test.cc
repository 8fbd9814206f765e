// SPDX-License-Identifier: Apache-2.0
//
// The web console's routes: every file of console/ is embedded byte for byte and served with
// its Content-Type, the HTML with a Content-Security-Policy; unknown files answer 404 JSON.
#include "broker/http/console_routes.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "broker/http/console_assets.h"

namespace kgroups::broker::http {
namespace {

std::filesystem::path console_dir() {
  return std::filesystem::path(KGROUPS_SOURCE_DIR) / "console";
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

HttpResponse get(const HttpRouter& router, std::string path) {
  HttpRequest request;
  request.method = "GET";
  request.path = std::move(path);
  return router.dispatch(request).response;
}

std::string header(const HttpResponse& response, std::string_view name) {
  for (const auto& [key, value] : response.headers) {
    if (key == name) return value;
  }
  return {};
}

class ConsoleRoutesTest : public ::testing::Test {
 protected:
  void SetUp() override { add_console_routes(router_); }
  HttpRouter router_;
};

TEST_F(ConsoleRoutesTest, EmbedsEveryConsoleFileByteForByte) {
  const std::filesystem::path dir = console_dir();
  std::size_t files_on_disk = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    ++files_on_disk;
    const std::string relative = entry.path().lexically_relative(dir).generic_string();
    const HttpResponse response = get(router_, "/console/" + relative);
    EXPECT_EQ(response.status, 200) << relative;
    EXPECT_EQ(response.body, read_file(entry.path())) << relative;
    EXPECT_EQ(header(response, "Cache-Control"), "no-cache") << relative;
  }
  EXPECT_EQ(console_assets().size(), files_on_disk);
  EXPECT_GE(files_on_disk, 3U);
}

TEST_F(ConsoleRoutesTest, RootServesIndexHtmlWithContentSecurityPolicy) {
  const HttpResponse response = get(router_, "/");
  EXPECT_EQ(response.status, 200);
  EXPECT_EQ(response.body, read_file(console_dir() / "index.html"));
  EXPECT_EQ(response.content_type, "text/html; charset=utf-8");
  EXPECT_NE(header(response, "Content-Security-Policy").find("default-src 'self'"),
            std::string::npos);
  EXPECT_EQ(header(response, "Cache-Control"), "no-cache");
}

TEST_F(ConsoleRoutesTest, ServesEachKindWithItsContentType) {
  EXPECT_EQ(get(router_, "/console/console.css").content_type, "text/css; charset=utf-8");
  const HttpResponse script = get(router_, "/console/js/main.js");
  EXPECT_EQ(script.content_type, "text/javascript; charset=utf-8");
  EXPECT_TRUE(header(script, "Content-Security-Policy").empty());
  EXPECT_EQ(get(router_, "/console/favicon.svg").content_type, "image/svg+xml");
  EXPECT_EQ(console_content_type("shot.png"), "image/png");
  EXPECT_EQ(console_content_type("notes"), "application/octet-stream");
}

TEST_F(ConsoleRoutesTest, UnknownFileIs404JsonError) {
  for (const char* path : {"/console/nope.js", "/console/js/../../CMakeLists.txt", "/console/js",
                           "/console/js/nope/main.js"}) {
    const HttpResponse response = get(router_, path);
    EXPECT_EQ(response.status, 404) << path;
    EXPECT_EQ(response.content_type, "application/json") << path;
    const nlohmann::json body = nlohmann::json::parse(response.body);
    EXPECT_EQ(body["error"]["status"], 404) << path;
  }
  const HttpResponse missing = get(router_, "/console/nope.js");
  EXPECT_NE(missing.body.find("no console file \\\"nope.js\\\""), std::string::npos)
      << missing.body;
}

TEST_F(ConsoleRoutesTest, OnlyGetIsAllowed) {
  HttpRequest request;
  request.method = "POST";
  request.path = "/console/js/main.js";
  EXPECT_EQ(router_.dispatch(request).response.status, 405);
}

}  // namespace
}  // namespace kgroups::broker::http
