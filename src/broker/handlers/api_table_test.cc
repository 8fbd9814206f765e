// SPDX-License-Identifier: Apache-2.0
#include "broker/handlers/api_table.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace kgroups::broker {
namespace {

using protocol::ApiKey;

TEST(ApiTable, ServesTheVersionsTheClientsNeed) {
  // librdkafka's feature checks (its rd_kafka_feature_map): Produce must include v0 (or it
  // turns compression off) and v3, Fetch v4 (message format v2).
  const ApiEntry* produce = find_api(ApiKey::kProduce);
  ASSERT_NE(produce, nullptr);
  EXPECT_EQ(produce->min_version, 0);
  EXPECT_EQ(produce->max_version, 11);
  const ApiEntry* fetch = find_api(ApiKey::kFetch);
  ASSERT_NE(fetch, nullptr);
  EXPECT_EQ(fetch->min_version, 4);
  EXPECT_EQ(fetch->max_version, 17);
  const ApiEntry* list_offsets = find_api(ApiKey::kListOffsets);
  ASSERT_NE(list_offsets, nullptr);
  EXPECT_EQ(list_offsets->min_version, 1);
  EXPECT_EQ(list_offsets->max_version, 10);
  // Metadata v0 and v1 for kafka-python, which infers the broker version from these maxima
  // (Metadata >= 5: 1.0, Fetch >= 11: 2.3, Produce >= 8: 2.4, ListOffsets >= 5: 2.2) and then
  // sends the Fetch, Produce and ListOffsets versions of that broker: all of them must be
  // served, so the four are raised together.
  const ApiEntry* metadata = find_api(ApiKey::kMetadata);
  ASSERT_NE(metadata, nullptr);
  EXPECT_EQ(metadata->min_version, 0);
  EXPECT_EQ(metadata->max_version, 12);
  // The classic group APIs at the versions static membership needs (KIP-345: JoinGroup v5+),
  // and the consumer-group protocol (KIP-848).
  EXPECT_EQ(find_api(ApiKey::kJoinGroup)->max_version, 9);
  EXPECT_EQ(find_api(ApiKey::kLeaveGroup)->max_version, 5);
  EXPECT_NE(find_api(ApiKey::kConsumerGroupHeartbeat), nullptr);
  EXPECT_EQ(find_api(ApiKey::kApiVersions)->max_version, 4);
  EXPECT_EQ(find_api(ApiKey::kSaslHandshake)->max_version, 1);  // v0: kafka-python 2.0
  EXPECT_EQ(find_api(ApiKey::kSaslAuthenticate)->max_version, 2);
}

TEST(ApiTable, DocsProtocolMdHoldsTheGeneratedTable) {
  std::ifstream file(std::string(KGROUPS_SOURCE_DIR) + "/docs/PROTOCOL.md");
  ASSERT_TRUE(file) << "docs/PROTOCOL.md is missing";
  std::stringstream contents;
  contents << file.rdbuf();
  EXPECT_NE(contents.str().find(api_table_markdown()), std::string::npos)
      << "docs/PROTOCOL.md is out of date; regenerate its table with "
         "`kgroupsd --print-protocol-table`:\n"
      << api_table_markdown();
}

}  // namespace
}  // namespace kgroups::broker
