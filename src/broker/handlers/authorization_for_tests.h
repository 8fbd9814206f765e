// SPDX-License-Identifier: Apache-2.0
//
// AuthorizingBrokerTest: the fixture of the handlers' authorization tests: one broker with the
// authorizer on (no ACL: everything denied, allow.everyone.if.no.acl.found is off), helpers that
// add ALLOW and DENY ACLs for User:alice (or any principal) through broker.access().acls(),
// and call() driving a handler as alice's connection from 127.0.0.1 drives it.
// Not thread-safe: one test's thread.
#pragma once

#include <gtest/gtest.h>

#include <asio/io_context.hpp>
#include <cstdint>
#include <string>

#include "broker/handlers/handler_call_for_tests.h"
#include "broker/node/broker.h"
#include "broker/node/three_broker_config_for_tests.h"
#include "broker/security/connection_auth.h"

namespace kgroups::broker::testing {

inline BrokerConfig authorizing_config() {
  BrokerConfig config;
  config.security.authorizer = true;
  return config;
}

class AuthorizingBrokerTest : public ::testing::Test {
 protected:
  static constexpr const char* kAlice = "User:alice";

  void acl(AclPermissionType permission, AclResourceType type, std::string name,
           AclOperation operation, AclPatternType pattern = AclPatternType::kLiteral,
           std::string principal = kAlice) {
    ASSERT_FALSE(broker_.access()
                     .acls()
                     .create(AclBinding{.resource_type = type,
                                        .resource_name = std::move(name),
                                        .pattern_type = pattern,
                                        .principal = std::move(principal),
                                        .host = "*",
                                        .operation = operation,
                                        .permission = permission})
                     .has_value());
  }
  void allow(AclResourceType type, std::string name, AclOperation operation,
             AclPatternType pattern = AclPatternType::kLiteral) {
    acl(AclPermissionType::kAllow, type, std::move(name), operation, pattern);
  }
  void deny(AclResourceType type, std::string name, AclOperation operation,
            AclPatternType pattern = AclPatternType::kLiteral) {
    acl(AclPermissionType::kDeny, type, std::move(name), operation, pattern);
  }
  void allow_topic(std::string name, AclOperation operation) {
    allow(AclResourceType::kTopic, std::move(name), operation);
  }
  void allow_group(std::string name, AclOperation operation) {
    allow(AclResourceType::kGroup, std::move(name), operation);
  }
  void allow_cluster(AclOperation operation) {
    allow(AclResourceType::kCluster, std::string(kClusterResourceName), operation);
  }

  template <class Response, class Request>
  Response call(const Request& request, std::int16_t version) {
    return call_handler<Response>(broker_, io_, request, version, 0, &alice_);
  }

  Broker broker_{authorizing_config(), kTestMachineBytes};
  asio::io_context io_;
  ConnectionAuth alice_{false, "127.0.0.1", kAlice};
};

}  // namespace kgroups::broker::testing
