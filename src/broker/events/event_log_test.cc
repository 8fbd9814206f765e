// SPDX-License-Identifier: Apache-2.0
#include "broker/events/event_log.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kgroups::broker {
namespace {

using Json = nlohmann::ordered_json;

std::vector<std::uint64_t> ids(const std::vector<const Event*>& events) {
  std::vector<std::uint64_t> out;
  for (const Event* event : events) out.push_back(event->id);
  return out;
}

EventLog::WallClock fixed_clock(std::int64_t ms) {
  return [ms] { return ms; };
}

TEST(EventLog, NumbersEventsFromOneAndWritesTheirJson) {
  EventLog log({}, fixed_clock(1764645000123));
  EXPECT_EQ(log.last_id(), 0U);
  EXPECT_EQ(log.publish("topic_created", "", Json{{"topic", "orders"}, {"partitions", 3}}), 1U);
  EXPECT_EQ(log.publish("member_joined", "g1", Json{{"group_id", "g1"}, {"id", "ignored"}}), 2U);
  ASSERT_EQ(log.size(), 2U);
  const std::vector<const Event*> events = log.since(0);
  EXPECT_EQ(events[0]->json,
            R"({"id":1,"time_ms":1764645000123,"type":"topic_created","topic":"orders",)"
            R"("partitions":3})");
  EXPECT_EQ(events[0]->group_id, "");
  EXPECT_EQ(events[1]->json,
            R"({"id":2,"time_ms":1764645000123,"type":"member_joined","group_id":"g1"})");
  EXPECT_EQ(events[1]->type, "member_joined");
  EXPECT_EQ(events[1]->group_id, "g1");
  EXPECT_EQ(log.last_id(), 2U);
  EXPECT_EQ(log.bytes(), events[0]->json.size() + events[1]->json.size());
}

TEST(EventLog, SinceGivesTheEventsAfterAnIdOldestFirst) {
  EventLog log;
  for (int i = 0; i < 5; ++i) log.publish("e", "", Json::object());
  EXPECT_EQ(ids(log.since(0)), (std::vector<std::uint64_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(ids(log.since(3)), (std::vector<std::uint64_t>{4, 5}));
  EXPECT_TRUE(log.since(5).empty());
  EXPECT_TRUE(log.since(99).empty());
}

TEST(EventLog, KeepsOnlyTheNewestMaxEvents) {
  EventLog log(EventLogLimits{.max_events = 3});
  for (int i = 0; i < 10; ++i) log.publish("e", "", Json::object());
  EXPECT_EQ(log.size(), 3U);
  EXPECT_EQ(ids(log.since(0)), (std::vector<std::uint64_t>{8, 9, 10}));
  // An id older than the oldest kept gives every kept event.
  EXPECT_EQ(ids(log.since(2)), (std::vector<std::uint64_t>{8, 9, 10}));
  EXPECT_EQ(ids(log.since(8)), (std::vector<std::uint64_t>{9, 10}));
  EXPECT_EQ(log.last_id(), 10U);
}

TEST(EventLog, ForgetsTheOldestBeyondMaxBytesButKeepsTheNewest) {
  EventLog log(EventLogLimits{.max_events = 100, .max_bytes = 200}, fixed_clock(0));
  const Json payload = {{"text", std::string(50, 'x')}};  // about 90 bytes of JSON
  for (int i = 0; i < 5; ++i) log.publish("e", "", payload);
  EXPECT_EQ(ids(log.since(0)), (std::vector<std::uint64_t>{4, 5}));
  EXPECT_LE(log.bytes(), 200U);
  log.publish("big", "", Json{{"text", std::string(500, 'y')}});
  EXPECT_EQ(ids(log.since(0)), (std::vector<std::uint64_t>{6}));
  EXPECT_GT(log.bytes(), 200U);
}

TEST(EventLog, SubscribersGetEachNewEventInOrder) {
  EventLog log;
  log.publish("before", "", Json::object());
  std::vector<std::string> seen;
  log.subscribe([&](const Event& event) {
    seen.push_back("first " + std::to_string(event.id) + " " + event.type);
    return true;
  });
  log.subscribe([&](const Event& event) {
    seen.push_back("second " + std::to_string(event.id) + " " + event.type);
    return true;
  });
  log.publish("a", "", Json::object());
  log.publish("b", "g", Json::object());
  EXPECT_EQ(seen, (std::vector<std::string>{"first 2 a", "second 2 a", "first 3 b", "second 3 b"}));
}

TEST(EventLog, ASubscriberReturningFalseIsDropped) {
  EventLog log;
  int calls = 0;
  log.subscribe([&](const Event&) {
    ++calls;
    return false;
  });
  int other_calls = 0;
  log.subscribe([&](const Event&) {
    ++other_calls;
    return true;
  });
  log.publish("a", "", Json::object());
  EXPECT_EQ(log.subscriber_count(), 1U);
  log.publish("b", "", Json::object());
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(other_calls, 2);
}

TEST(EventLog, SubscribersMayUnsubscribeAndSubscribeDuringAPublication) {
  EventLog log;
  std::vector<std::string> seen;
  EventLog::SubscriptionId second = 0;
  log.subscribe([&](const Event& event) {
    seen.push_back("first " + event.type);
    if (event.type == "a") {
      log.unsubscribe(second);  // not yet called for "a": it misses it
      log.subscribe([&](const Event& later) {
        seen.push_back("late " + later.type);  // starts with the next event
        return true;
      });
    }
    return true;
  });
  second = log.subscribe([&](const Event& event) {
    seen.push_back("second " + event.type);
    return true;
  });
  log.publish("a", "", Json::object());
  EXPECT_EQ(log.subscriber_count(), 2U);
  log.publish("b", "", Json::object());
  EXPECT_EQ(seen, (std::vector<std::string>{"first a", "first b", "late b"}));
}

TEST(EventLog, AnUnsubscribedSubscriberGetsNothing) {
  EventLog log;
  int calls = 0;
  const EventLog::SubscriptionId id = log.subscribe([&](const Event&) {
    ++calls;
    return true;
  });
  log.unsubscribe(id);
  log.unsubscribe(id);  // twice, or an unknown id: ignored
  log.publish("a", "", Json::object());
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(log.subscriber_count(), 0U);
}

TEST(EventLog, InvalidUtf8IsReplacedNotThrown) {
  EventLog log({}, fixed_clock(0));
  log.publish("member_joined", "g", Json{{"member_id", std::string("bad\xff")}});
  const Json parsed = Json::parse(log.since(0).at(0)->json);
  EXPECT_EQ(parsed["member_id"], "bad\xEF\xBF\xBD");
}

}  // namespace
}  // namespace kgroups::broker
