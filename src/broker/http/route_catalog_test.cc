// SPDX-License-Identifier: Apache-2.0
#include "broker/http/route_catalog.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <asio/io_context.hpp>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "broker/http/http_router.h"
#include "broker/http/http_routes.h"
#include "broker/node/broker.h"

namespace kgroups::broker::http {
namespace {

std::set<std::string> catalog_routes() {
  std::set<std::string> routes;
  for (const RouteDescription& route : route_catalog()) {
    routes.insert(std::string(route.method) + " " + std::string(route.pattern));
  }
  return routes;
}

TEST(RouteCatalog, TheEndpointServesExactlyTheCatalogsRoutes) {
  asio::io_context io;
  Broker broker(BrokerConfig{}, std::int64_t{1} << 30);
  HttpRouter router;
  build_http_routes(router, broker, io.get_executor());
  const std::vector<std::string> served = router.route_names();
  const std::set<std::string> served_set(served.begin(), served.end());
  EXPECT_EQ(served_set.size(), served.size()) << "a route is added twice";
  for (const std::string& route : served) {
    EXPECT_TRUE(catalog_routes().contains(route))
        << route << " is served but not described in http/route_catalog.cc";
  }
  for (const std::string& route : catalog_routes()) {
    EXPECT_TRUE(served_set.contains(route))
        << route << " is described in http/route_catalog.cc but not served";
  }
}

TEST(RouteCatalog, EveryRouteHasASummaryAndDocumentation) {
  for (const RouteDescription& route : route_catalog()) {
    EXPECT_FALSE(route.summary.empty()) << route.pattern;
    EXPECT_FALSE(route.documentation.empty()) << route.pattern;
  }
}

TEST(RouteCatalog, TheEndpointListShowsEveryRouteAsClientsWriteIt) {
  const nlohmann::json list = route_catalog_json();
  EXPECT_EQ(list["version"], "v1");
  ASSERT_EQ(list["endpoints"].size(), route_catalog().size());
  EXPECT_EQ(list["endpoints"].back()["route"], "GET /console/{path}");
}

TEST(RouteCatalog, DocsHttpApiMdHoldsTheGeneratedTable) {
  std::ifstream file(std::string(KGROUPS_SOURCE_DIR) + "/docs/HTTP-API.md");
  ASSERT_TRUE(file) << "docs/HTTP-API.md is missing";
  std::stringstream contents;
  contents << file.rdbuf();
  EXPECT_NE(contents.str().find(route_catalog_markdown()), std::string::npos)
      << "docs/HTTP-API.md is out of date; regenerate its endpoint table with "
         "`kgroupsd --print-http-routes-table`:\n"
      << route_catalog_markdown();
  EXPECT_NE(contents.str().find(route_catalog_json().dump()), std::string::npos)
      << "docs/HTTP-API.md's GET /v1 example is out of date; it is:\n"
      << route_catalog_json().dump();
}

}  // namespace
}  // namespace kgroups::broker::http
