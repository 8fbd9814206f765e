// SPDX-License-Identifier: Apache-2.0
#include "broker/security/base64.h"

#include <gtest/gtest.h>

#include "broker/security/scram_keys.h"

namespace kgroups::broker {
namespace {

TEST(SaslBase64, EncodesAndDecodesRfc4648Vectors) {
  EXPECT_EQ(base64_encode(scram_bytes("")), "");
  EXPECT_EQ(base64_encode(scram_bytes("f")), "Zg==");
  EXPECT_EQ(base64_encode(scram_bytes("fo")), "Zm8=");
  EXPECT_EQ(base64_encode(scram_bytes("foobar")), "Zm9vYmFy");
  EXPECT_EQ(base64_decode("Zm9vYg=="), "foob");
  EXPECT_EQ(base64_decode("Zm9vYmE="), "fooba");
}

TEST(SaslBase64, RefusesForeignCharactersBadPaddingAndLeftoverBits) {
  EXPECT_EQ(base64_decode("Zm9vYg="), std::nullopt);   // length not a multiple of 4
  EXPECT_EQ(base64_decode("Zm9v*mFy"), std::nullopt);  // '*' is not in the alphabet
  EXPECT_EQ(base64_decode("Zm9=YmFy"), std::nullopt);  // '=' inside
  EXPECT_EQ(base64_decode("Zh=="), std::nullopt);      // bits left over in 'h'
  EXPECT_EQ(base64_decode("Zm-_"), std::nullopt);      // url alphabet in standard base64
}

TEST(SaslBase64, UrlVariantTakesItsAlphabetWithOrWithoutPadding) {
  EXPECT_EQ(base64url_decode("-_8"), std::string("\xfb\xff", 2));
  EXPECT_EQ(base64url_decode("Zg"), "f");
  EXPECT_EQ(base64url_decode("Zg=="), "f");
  EXPECT_EQ(base64url_decode("+/8"), std::nullopt);
  EXPECT_EQ(base64url_decode("Z"), std::nullopt);
}

}  // namespace
}  // namespace kgroups::broker
