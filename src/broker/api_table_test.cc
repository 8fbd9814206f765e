// SPDX-License-Identifier: Apache-2.0
#include "broker/api_table.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace kgroups::broker {
namespace {

using protocol::ApiKey;

TEST(ApiTable, ServesTheVersionsTheClientsNeed) {
  // librdkafka's feature checks (KAFKA-PROTOCOL-NOTES.md §1.3): Produce must include v0 (or it
  // turns compression off) and v3, Fetch v4 (message format v2).
  const ApiEntry* produce = find_api(ApiKey::kProduce);
  ASSERT_NE(produce, nullptr);
  EXPECT_EQ(produce->min_version, 0);
  EXPECT_GE(produce->max_version, 3);
  const ApiEntry* fetch = find_api(ApiKey::kFetch);
  ASSERT_NE(fetch, nullptr);
  EXPECT_LE(fetch->min_version, 4);
  EXPECT_GE(fetch->max_version, 4);
  // Metadata v0 and v1 for kafka-python; max 4 keeps its inferred broker version at 0.11.
  const ApiEntry* metadata = find_api(ApiKey::kMetadata);
  ASSERT_NE(metadata, nullptr);
  EXPECT_EQ(metadata->min_version, 0);
  EXPECT_EQ(metadata->max_version, 4);
  // The classic group APIs at the versions static membership needs (KIP-345: JoinGroup v5+),
  // and the consumer-group protocol (KIP-848).
  EXPECT_EQ(find_api(ApiKey::kJoinGroup)->max_version, 9);
  EXPECT_EQ(find_api(ApiKey::kLeaveGroup)->max_version, 5);
  EXPECT_NE(find_api(ApiKey::kConsumerGroupHeartbeat), nullptr);
  EXPECT_EQ(find_api(ApiKey::kApiVersions)->max_version, 4);
  EXPECT_EQ(find_api(ApiKey::kSaslHandshake), nullptr);
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
