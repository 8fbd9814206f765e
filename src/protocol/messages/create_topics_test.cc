// SPDX-License-Identifier: Apache-2.0

#include "protocol/messages/create_topics.h"

#include <gtest/gtest.h>

#include "protocol/messages/round_trip.h"

namespace kgroups::protocol {
namespace {

TEST(CreateTopics, RequestRoundTripsInEveryVersion) {
  expect_round_trip_all_versions<CreateTopicsRequest>([](std::int16_t version) {
    CreateTopicsRequest request;
    CreateTopicsRequest::Topic topic;
    topic.name = "orders";
    topic.num_partitions = 6;
    topic.replication_factor = 1;
    topic.assignments = {{0, {1}}, {1, {1, 2}}};
    topic.configs = {{"retention.ms", "1000"}, {"cleanup.policy", std::nullopt}};
    request.topics = {topic, {"defaults", -1, -1, {}, {}}};
    request.timeout_ms = 5000;
    if (version >= 1) request.validate_only = true;
    return request;
  });
  expect_unsupported_versions_rejected<CreateTopicsRequest>();
}

TEST(CreateTopics, ResponseRoundTripsInEveryVersion) {
  expect_round_trip_all_versions<CreateTopicsResponse>([](std::int16_t version) {
    CreateTopicsResponse response;
    if (version >= 2) response.throttle_time_ms = 4;
    CreateTopicsResponse::Topic exists{.name = "orders",
                                       .error_code = ErrorCode::kTopicAlreadyExists};
    if (version >= 1) exists.error_message = "Topic 'orders' already exists.";
    response.topics = {exists, {.name = "fresh"}};
    return response;
  });
  expect_unsupported_versions_rejected<CreateTopicsResponse>();
}

}  // namespace
}  // namespace kgroups::protocol
