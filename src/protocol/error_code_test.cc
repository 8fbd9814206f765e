// SPDX-License-Identifier: Apache-2.0
#include "protocol/error_code.h"

#include <gtest/gtest.h>

namespace kgroups::protocol {
namespace {

TEST(ErrorCodeFromName, FindsKafkasNamesIncludingTheRenamedNotLeader) {
  EXPECT_EQ(error_code_from_name("NOT_LEADER_OR_FOLLOWER"), ErrorCode::kNotLeaderForPartition);
  EXPECT_EQ(error_code_from_name("COORDINATOR_NOT_AVAILABLE"), ErrorCode::kCoordinatorNotAvailable);
  EXPECT_EQ(error_code_from_name("UNKNOWN_SERVER_ERROR"), ErrorCode::kUnknownServerError);
  EXPECT_EQ(error_code_from_name("NONE"), ErrorCode::kNone);
}

TEST(ErrorCodeFromName, RefusesUnknownNamesAndOtherCase) {
  EXPECT_FALSE(error_code_from_name("not_leader_or_follower"));
  EXPECT_FALSE(error_code_from_name("UNKNOWN_ERROR_CODE"));
  EXPECT_FALSE(error_code_from_name("NOT_LEADER"));
}

TEST(IsKnownErrorCode, KnowsTheListedCodesOnly) {
  EXPECT_TRUE(is_known_error_code(6));
  EXPECT_TRUE(is_known_error_code(-1));
  EXPECT_FALSE(is_known_error_code(52));  // not listed by this enum
  EXPECT_FALSE(is_known_error_code(30000));
}

TEST(ErrorCodeFromName, KnowsTheShareGroupCodesByKafkasNumbers) {
  EXPECT_EQ(error_code_from_name("INVALID_RECORD_STATE"), static_cast<ErrorCode>(121));
  EXPECT_EQ(error_code_from_name("SHARE_SESSION_NOT_FOUND"), static_cast<ErrorCode>(122));
  EXPECT_EQ(error_code_from_name("INVALID_SHARE_SESSION_EPOCH"), static_cast<ErrorCode>(123));
  EXPECT_EQ(error_code_from_name("FENCED_STATE_EPOCH"), static_cast<ErrorCode>(124));
  EXPECT_EQ(error_code_from_name("SHARE_SESSION_LIMIT_REACHED"), static_cast<ErrorCode>(133));
}

}  // namespace
}  // namespace kgroups::protocol
