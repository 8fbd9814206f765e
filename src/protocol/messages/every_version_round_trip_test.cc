// SPDX-License-Identifier: Apache-2.0
//
// Every version of every message with a schema round-trips: a message with every field of the
// version set (message_samples.h), the same with its nullable fields null, and the default
// message each encode, decode back to an equal message, re-encode to the same bytes, consume
// every byte, and reject every truncated prefix (round_trip.h).

#include <gtest/gtest.h>

#include <type_traits>

#include "protocol/messages/message_samples.h"
#include "protocol/messages/request_types.h"
#include "protocol/messages/round_trip.h"
#include "protocol/request_header.h"

namespace kgroups::protocol {
namespace {

template <class Message>
void expect_every_version_round_trips() {
  for (std::int16_t version = Message::kMinVersion; version <= Message::kMaxVersion; ++version) {
    SCOPED_TRACE(testing::Message() << api_name(Message::kApiKey) << " v" << version);
    expect_round_trip(samples::sample<Message>(version, false), version);
    expect_round_trip(samples::sample<Message>(version, true), version);
    expect_round_trip(Message{}, version);
  }
}

TEST(EveryVersion, EveryRequestRoundTrips) {
  for (const ApiKey key : kRequestTypeKeys) {
    visit_request_type(key, [](auto* tag) {
      expect_every_version_round_trips<std::remove_pointer_t<decltype(tag)>>();
    });
  }
}

TEST(EveryVersion, EveryResponseRoundTrips) {
  for (const ApiKey key : kRequestTypeKeys) {
    visit_response_type(key, [](auto* tag) {
      expect_every_version_round_trips<std::remove_pointer_t<decltype(tag)>>();
    });
  }
}

TEST(EveryVersion, FlexibleVersionsComeFromTheSchemas) {
  EXPECT_FALSE(is_flexible_request(ApiKey::kJoinGroup, 5));
  EXPECT_TRUE(is_flexible_request(ApiKey::kJoinGroup, 6));
  EXPECT_TRUE(is_flexible_request(ApiKey::kConsumerGroupHeartbeat, 0));
  EXPECT_TRUE(is_flexible_request(ApiKey::kApiVersions, 3));
  EXPECT_FALSE(is_flexible_response(ApiKey::kApiVersions, 3));  // always response header v0
  EXPECT_TRUE(is_flexible_response(ApiKey::kFetch, 12));
  EXPECT_FALSE(is_flexible_request(ApiKey::kSaslHandshake, 1));  // no schema
}

}  // namespace
}  // namespace kgroups::protocol
