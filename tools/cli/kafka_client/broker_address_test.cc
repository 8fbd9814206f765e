// SPDX-License-Identifier: Apache-2.0
#include "kafka_client/broker_address.h"

#include <gtest/gtest.h>

namespace kgroups::cli {
namespace {

TEST(BrokerAddress, ParsesHostAndPort) {
  EXPECT_EQ(parse_broker_address("localhost:9092"), (BrokerAddress{"localhost", 9092}));
  EXPECT_EQ(parse_broker_address("10.0.0.1:1"), (BrokerAddress{"10.0.0.1", 1}));
}

TEST(BrokerAddress, ParsesABracketedIpv6Host) {
  EXPECT_EQ(parse_broker_address("[::1]:9092"), (BrokerAddress{"::1", 9092}));
  EXPECT_EQ((BrokerAddress{"::1", 9092}).to_string(), "[::1]:9092");
}

TEST(BrokerAddress, RejectsWhatIsNotHostColonPort) {
  for (const char* text : {"localhost", "localhost:", ":9092", "host:0", "host:65536", "host:12x",
                           "host:-1", "::1:9092", "[]:9092"}) {
    EXPECT_FALSE(parse_broker_address(text).has_value()) << text;
  }
}

TEST(BrokerAddress, PrintsHostColonPort) {
  EXPECT_EQ((BrokerAddress{"127.0.0.1", 65535}).to_string(), "127.0.0.1:65535");
}

}  // namespace
}  // namespace kgroups::cli
