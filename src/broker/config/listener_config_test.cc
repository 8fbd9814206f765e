// SPDX-License-Identifier: Apache-2.0
#include "broker/config/listener_config.h"

#include <gtest/gtest.h>

namespace kgroups::broker {
namespace {

using P = SecurityProtocol;

TEST(ParseListeners, ReadsKafkasSyntaxWithOneListenerPerProtocol) {
  const ListenersParse parse =
      parse_listeners("PLAINTEXT://127.0.0.1:9092,SASL_SSL://127.0.0.1:9094", 1);
  ASSERT_FALSE(parse.error) << *parse.error;
  ASSERT_EQ(parse.listeners.size(), 1U);
  const std::vector<ListenerAddress> expected{{P::kPlaintext, "127.0.0.1", 9092},
                                              {P::kSaslSsl, "127.0.0.1", 9094}};
  EXPECT_EQ(parse.listeners.front(), expected);
  EXPECT_EQ(parse.listeners.front()[1].text(), "SASL_SSL://127.0.0.1:9094");
}

TEST(ParseListeners, AnEmptyHostIsLoopbackAndIpv6NeedsBrackets) {
  const ListenersParse parse = parse_listeners("SSL://:9093,SASL_PLAINTEXT://[::1]:0", 1);
  ASSERT_FALSE(parse.error) << *parse.error;
  EXPECT_EQ(parse.listeners[0][0].host, "127.0.0.1");
  EXPECT_EQ(parse.listeners[0][1].host, "::1");
  EXPECT_EQ(parse.listeners[0][1].text(), "SASL_PLAINTEXT://[::1]:0");
  EXPECT_TRUE(parse_listeners("SSL://::1:9093", 1).error);
}

TEST(ParseListeners, OneListForSeveralBrokersCountsPortsUpOrKeepsPortZero) {
  const ListenersParse parse = parse_listeners("PLAINTEXT://:9092,SSL://:9192,SASL_SSL://:0", 3);
  ASSERT_FALSE(parse.error) << *parse.error;
  ASSERT_EQ(parse.listeners.size(), 3U);
  EXPECT_EQ(parse.listeners[2][0].port, 9094);
  EXPECT_EQ(parse.listeners[2][1].port, 9194);
  EXPECT_EQ(parse.listeners[2][2].port, 0);
}

TEST(ParseListeners, RefusesPortsThatCountingUpWouldCollide) {
  const ListenersParse parse = parse_listeners("PLAINTEXT://:9092,SSL://:9093", 3);
  ASSERT_TRUE(parse.error);
  EXPECT_NE(parse.error->find("give each broker its own list"), std::string::npos) << *parse.error;
  EXPECT_TRUE(parse.listeners.empty());
}

TEST(ParseListeners, OneListPerBrokerSeparatedBySemicolons) {
  const ListenersParse parse =
      parse_listeners("PLAINTEXT://:9092,SSL://:9192;PLAINTEXT://:9300,SSL://:9400", 2);
  ASSERT_FALSE(parse.error) << *parse.error;
  EXPECT_EQ(parse.listeners[1][1].port, 9400);
  EXPECT_TRUE(parse_listeners("PLAINTEXT://:9092;SSL://:9093", 2).error);
  EXPECT_TRUE(parse_listeners("PLAINTEXT://:9092;PLAINTEXT://:9093", 3).error);
}

TEST(ParseListeners, SaysWhatIsWrongWithABadEntry) {
  EXPECT_NE(parse_listeners("INTERNAL://:9092", 1).error->find("not one of PLAINTEXT"),
            std::string::npos);
  EXPECT_NE(parse_listeners("127.0.0.1:9092", 1).error->find("PROTOCOL://HOST:PORT"),
            std::string::npos);
  EXPECT_NE(parse_listeners("SSL://:70000", 1).error->find("not a number from 0 to 65535"),
            std::string::npos);
  EXPECT_NE(parse_listeners("SSL://:1,SSL://:2", 1).error->find("two SSL listeners"),
            std::string::npos);
  EXPECT_NE(parse_listeners("SSL://:1,,SSL://:2", 1).error->find("empty entry"), std::string::npos);
}

}  // namespace
}  // namespace kgroups::broker
