// SPDX-License-Identifier: Apache-2.0
#include "broker/security/sasl_session.h"

#include <gtest/gtest.h>

#include "broker/security/base64.h"

namespace kgroups::broker {
namespace {

using namespace std::string_literals;
using Outcome = SaslReply::Outcome;

constexpr std::int64_t kNowMs = 1'700'000'000'000;

CredentialStore session_store() {
  CredentialStore store;
  EXPECT_EQ(load_users_text(store, "alice:alice-pw\n", "test"), std::nullopt);
  return store;
}

std::string unsecured_token_expiring_in(std::int64_t seconds) {
  auto url = [](std::string_view text) {
    std::string encoded = base64_encode(scram_bytes(text));
    for (char& c : encoded) c = c == '+' ? '-' : c == '/' ? '_' : c;
    while (!encoded.empty() && encoded.back() == '=') encoded.pop_back();
    return encoded;
  };
  const std::string claims =
      R"({"sub":"alice","exp":)" + std::to_string(kNowMs / 1000 + seconds) + "}";
  return url(R"({"alg":"none"})") + "." + url(claims) + ".";
}

TEST(SaslSession, StartsOnlyTheFourMechanisms) {
  const CredentialStore store = session_store();
  for (const std::string_view name : {"PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER"}) {
    const std::optional<SaslSession> session = SaslSession::start(name, store, {});
    ASSERT_TRUE(session.has_value()) << name;
    EXPECT_EQ(session->mechanism(), name);
  }
  EXPECT_FALSE(SaslSession::start("GSSAPI", store, {}).has_value());
  EXPECT_FALSE(SaslSession::start("plain", store, {}).has_value());
  EXPECT_FALSE(SaslSession::start("SCRAM-SHA-1", store, {}).has_value());
}

TEST(SaslSession, PlainSuccessGivesTheUserPrincipalAndTheReauthSetting) {
  const CredentialStore store = session_store();
  SaslSettings settings;
  settings.connections_max_reauth_ms = 60'000;
  std::optional<SaslSession> session = SaslSession::start("PLAIN", store, settings);
  const SaslReply reply = session->step("\0alice\0alice-pw"s, kNowMs);
  ASSERT_EQ(reply.outcome, Outcome::kAuthenticated) << reply.log_reason;
  EXPECT_EQ(reply.principal, "User:alice");
  EXPECT_EQ(reply.session_lifetime_ms, 60'000);
  EXPECT_EQ(reply.auth_bytes, "");
}

TEST(SaslSession, WithoutAReauthSettingAPasswordSessionIsUnlimited) {
  const CredentialStore store = session_store();
  std::optional<SaslSession> session = SaslSession::start("PLAIN", store, {});
  EXPECT_EQ(session->step("\0alice\0alice-pw"s, kNowMs).session_lifetime_ms, 0);
}

TEST(SaslSession, PlainWrongPasswordPassesKafkasOwnMessageThrough) {
  const CredentialStore store = session_store();
  std::optional<SaslSession> session = SaslSession::start("PLAIN", store, {});
  const SaslReply reply = session->step("\0alice\0nope"s, kNowMs);
  EXPECT_EQ(reply.outcome, Outcome::kFailed);
  EXPECT_EQ(reply.error_message, "Authentication failed: Invalid username or password");
}

TEST(SaslSession, ScramFailuresShowOnlyKafkasGenericMessage) {
  const CredentialStore store = session_store();
  std::optional<SaslSession> session = SaslSession::start("SCRAM-SHA-256", store, {});
  const SaslReply reply = session->step("n,,n=mallory,r=abc", kNowMs);
  EXPECT_EQ(reply.outcome, Outcome::kFailed);
  EXPECT_EQ(reply.error_message,
            "Authentication failed during authentication due to invalid credentials with SASL "
            "mechanism SCRAM-SHA-256");
  EXPECT_NE(reply.log_reason.find("mallory"), std::string::npos) << reply.log_reason;
  EXPECT_EQ(reply.error_message.find("mallory"), std::string::npos);

  std::optional<SaslSession> again =
      SaslSession::start("SCRAM-SHA-512", store, {}, /*reauthentication=*/true);
  EXPECT_EQ(again->step("x", kNowMs).error_message,
            "Authentication failed during re-authentication due to invalid credentials with SASL "
            "mechanism SCRAM-SHA-512");
}

TEST(SaslSession, ScramChallengeIsPassedBackToSend) {
  const CredentialStore store = session_store();
  std::optional<SaslSession> session =
      SaslSession::start("SCRAM-SHA-512", store, {}, false, [] { return std::string("srv"); });
  const SaslReply reply = session->step("n,,n=alice,r=cli", kNowMs);
  ASSERT_EQ(reply.outcome, Outcome::kContinue) << reply.log_reason;
  EXPECT_TRUE(reply.auth_bytes.starts_with("r=clisrv,s=")) << reply.auth_bytes;
  EXPECT_TRUE(reply.auth_bytes.ends_with(",i=4096")) << reply.auth_bytes;
}

TEST(SaslSession, OAuthBearerLifetimeIsTheLesserOfReauthAndTokenExpiry) {
  const CredentialStore store = session_store();
  const std::string response =
      "n,,\x01"
      "auth=Bearer " +
      unsecured_token_expiring_in(3600) + "\x01\x01";
  const std::pair<std::int64_t, std::int64_t> cases[] = {
      {0, 3'600'000}, {60'000, 60'000}, {7'200'000, 3'600'000}};
  for (const auto& [reauth_ms, lifetime_ms] : cases) {
    SaslSettings settings;
    settings.connections_max_reauth_ms = reauth_ms;
    std::optional<SaslSession> session = SaslSession::start("OAUTHBEARER", store, settings);
    const SaslReply reply = session->step(response, kNowMs);
    ASSERT_EQ(reply.outcome, Outcome::kAuthenticated) << reply.log_reason;
    EXPECT_EQ(reply.principal, "User:alice");
    EXPECT_EQ(reply.session_lifetime_ms, lifetime_ms) << reauth_ms;
  }
}

TEST(SaslSession, OAuthBearerInvalidTokenIsAChallengeThenAFailureWithTheJson) {
  const CredentialStore store = session_store();
  std::optional<SaslSession> session = SaslSession::start("OAUTHBEARER", store, {});
  const SaslReply challenge = session->step(
      "n,,\x01"
      "auth=Bearer " +
          unsecured_token_expiring_in(-10) + "\x01\x01",
      kNowMs);
  ASSERT_EQ(challenge.outcome, Outcome::kContinue);
  EXPECT_EQ(challenge.auth_bytes, R"({"status":"invalid_token"})");
  const SaslReply failure = session->step("\x01", kNowMs);
  EXPECT_EQ(failure.outcome, Outcome::kFailed);
  EXPECT_EQ(failure.error_message, R"({"status":"invalid_token"})");
}

TEST(SaslSession, RefusesAuthBytesOverTheReceiveBound) {
  const CredentialStore store = session_store();
  SaslSettings settings;
  settings.max_receive_bytes = 16;
  std::optional<SaslSession> session = SaslSession::start("PLAIN", store, settings);
  const SaslReply reply = session->step("\0alice\0alice-pw-longer"s, kNowMs);
  EXPECT_EQ(reply.outcome, Outcome::kFailed);
  EXPECT_NE(reply.log_reason.find("exceed 16"), std::string::npos) << reply.log_reason;
  EXPECT_EQ(reply.error_message,
            "Authentication failed during authentication due to invalid credentials with SASL "
            "mechanism PLAIN");
}

}  // namespace
}  // namespace kgroups::broker
