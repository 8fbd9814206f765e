// SPDX-License-Identifier: Apache-2.0
#include "protocol/api_key.h"

#include <gtest/gtest.h>

namespace kgroups::protocol {
namespace {

TEST(ApiKeyFromName, FindsEveryListedKeyByItsKafkaName) {
  EXPECT_EQ(api_key_from_name("Produce"), ApiKey::kProduce);
  EXPECT_EQ(api_key_from_name("JoinGroup"), ApiKey::kJoinGroup);
  EXPECT_EQ(api_key_from_name("ConsumerGroupDescribe"), ApiKey::kConsumerGroupDescribe);
  for (int number = 0; number < 100; ++number) {
    const auto key = static_cast<ApiKey>(number);
    if (api_name(key) == "Unknown") continue;
    EXPECT_EQ(api_key_from_name(api_name(key)), key);
  }
}

TEST(ApiKeyFromName, RefusesUnknownNamesAndOtherCase) {
  EXPECT_FALSE(api_key_from_name("produce"));
  EXPECT_FALSE(api_key_from_name("Unknown"));
  EXPECT_FALSE(api_key_from_name(""));
}

}  // namespace
}  // namespace kgroups::protocol
