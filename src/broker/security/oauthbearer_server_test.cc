// SPDX-License-Identifier: Apache-2.0
#include "broker/security/oauthbearer_server.h"

#include <gtest/gtest.h>

#include "broker/security/base64.h"
#include "broker/security/scram_keys.h"

namespace kgroups::broker {
namespace {

using Outcome = SaslStep::Outcome;

constexpr std::int64_t kNowMs = 1'700'000'000'000;  // epoch ms; the tokens' times are seconds
constexpr std::int64_t kNowSeconds = kNowMs / 1000;

std::string base64url(std::string_view text) {
  std::string encoded = base64_encode(scram_bytes(text));
  for (char& c : encoded) {
    if (c == '+') c = '-';
    if (c == '/') c = '_';
  }
  while (!encoded.empty() && encoded.back() == '=') encoded.pop_back();
  return encoded;
}

std::string unsecured_token(const std::string& claims,
                            const std::string& header = R"({"alg":"none"})") {
  return base64url(header) + "." + base64url(claims) + ".";
}

std::string initial_response(const std::string& token, const std::string& gs2 = "n,,") {
  return gs2 +
         "\x01"
         "auth=Bearer " +
         token + "\x01\x01";
}

std::string claims_expiring_in(std::int64_t seconds, const std::string& extra = "") {
  return R"({"sub":"alice","exp":)" + std::to_string(kNowSeconds + seconds) + extra + "}";
}

TEST(OAuthBearerServer, AcceptsAValidUnsecuredTokenWithItsExpiry) {
  OAuthBearerServer server({});
  const SaslStep step = server.step(
      initial_response(
          unsecured_token(claims_expiring_in(3600, R"(,"iat":)" + std::to_string(kNowSeconds))),
          "n,a=alice,"),
      kNowMs);
  ASSERT_EQ(step.outcome, Outcome::kAuthenticated) << step.log_reason;
  EXPECT_EQ(step.user, "alice");
  EXPECT_EQ(step.credential_expiry_ms, kNowMs + 3'600'000);
}

TEST(OAuthBearerServer, AcceptsExtensionsAndAnyCaseOfBearer) {
  OAuthBearerServer server({});
  const std::string message =
      "n,,\x01"
      "host=broker\x01"
      "auth=bEaReR " +
      unsecured_token(claims_expiring_in(60)) +
      "\x01"
      "traceId=7\x01\x01";
  EXPECT_EQ(server.step(message, kNowMs).outcome, Outcome::kAuthenticated);
}

// Expects `token` to be refused with the JSON challenge `challenge`, then the exchange to
// fail with that JSON once the client acknowledges with \x01.
void expect_refused(const OAuthBearerSettings& settings, const std::string& token,
                    const std::string& challenge) {
  OAuthBearerServer server(settings);
  const SaslStep first = server.step(initial_response(token), kNowMs);
  ASSERT_EQ(first.outcome, Outcome::kChallenge) << token;
  EXPECT_EQ(first.bytes, challenge);
  const SaslStep second = server.step("\x01", kNowMs);
  EXPECT_EQ(second.outcome, Outcome::kFailed);
  EXPECT_EQ(second.client_error, challenge);
}

constexpr const char* kInvalidToken = R"({"status":"invalid_token"})";

TEST(OAuthBearerServer, AnswersAnExpiredTokenWithInvalidTokenThenFailsOnTheAcknowledgement) {
  expect_refused({}, unsecured_token(claims_expiring_in(-1)), kInvalidToken);
  expect_refused({}, unsecured_token(claims_expiring_in(0)), kInvalidToken);
}

TEST(OAuthBearerServer, AllowableClockSkewAcceptsARecentlyExpiredToken) {
  OAuthBearerSettings settings;
  settings.jws.allowable_clock_skew_ms = 5'000;
  OAuthBearerServer server(settings);
  const SaslStep step =
      server.step(initial_response(unsecured_token(claims_expiring_in(-2))), kNowMs);
  EXPECT_EQ(step.outcome, Outcome::kAuthenticated) << step.log_reason;
}

TEST(OAuthBearerServer, RefusesTokensWithBadClaims) {
  const std::string exp = std::to_string(kNowSeconds + 60);
  for (const std::string& claims : {
           R"({"exp":)" + exp + "}",                   // no sub
           R"({"sub":42,"exp":)" + exp + "}",          // sub not a string
           R"({"sub":"","exp":)" + exp + "}",          // empty sub
           std::string(R"({"sub":"alice"})"),          // no exp
           R"({"sub":"alice","exp":")" + exp + "\"}",  // exp a string
           R"({"sub":"alice","exp":)" + exp + R"(,"iat":)" + std::to_string(kNowSeconds + 30) + "}",
           R"({"sub":"alice","exp":)" + exp + R"(,"scope":7})",  // scope of a bad type
           std::string("not json"),
           std::string("[1,2]"),
       }) {
    expect_refused({}, unsecured_token(claims), kInvalidToken);
  }
}

TEST(OAuthBearerServer, TakesThePrincipalFromTheConfiguredClaim) {
  OAuthBearerSettings settings;
  settings.jws.principal_claim = "client_id";
  OAuthBearerServer server(settings);
  const SaslStep step = server.step(
      initial_response(unsecured_token(claims_expiring_in(60, R"(,"client_id":"svc-1")"))), kNowMs);
  ASSERT_EQ(step.outcome, Outcome::kAuthenticated) << step.log_reason;
  EXPECT_EQ(step.user, "svc-1");
}

TEST(OAuthBearerServer, RefusesAHeaderWhoseAlgIsNotNone) {
  expect_refused({}, unsecured_token(claims_expiring_in(60), R"({"alg":"HS256"})"), kInvalidToken);
  expect_refused({}, unsecured_token(claims_expiring_in(60), R"({"typ":"JWT"})"), kInvalidToken);
}

TEST(OAuthBearerServer, RefusesBadBase64AndBadShapes) {
  const std::string good = unsecured_token(claims_expiring_in(60));
  const std::string header = good.substr(0, good.find('.'));
  const std::string claims = base64url(claims_expiring_in(60));
  expect_refused({}, header + ".e3~0.", kInvalidToken);                // claims not base64url
  expect_refused({}, "e." + claims + ".", kInvalidToken);              // header not base64url
  expect_refused({}, header + "." + claims + ".c2ln", kInvalidToken);  // a signature
  expect_refused({}, header + "." + claims, kInvalidToken);            // two parts
  expect_refused({}, header + "." + claims + "..", kInvalidToken);     // four parts
}

TEST(OAuthBearerServer, RefusesATokenLackingARequiredScopeNamingIt) {
  OAuthBearerSettings settings;
  settings.jws.required_scopes = {"kafka", "write"};
  expect_refused(settings, unsecured_token(claims_expiring_in(60, R"(,"scope":"read kafka")")),
                 R"({"status":"insufficient_scope","scope":"write"})");
  expect_refused(settings, unsecured_token(claims_expiring_in(60)),
                 R"({"status":"insufficient_scope","scope":"kafka"})");
  OAuthBearerServer server(settings);
  const SaslStep accepted = server.step(
      initial_response(unsecured_token(claims_expiring_in(60, R"(,"scope":["write","kafka"])"))),
      kNowMs);
  EXPECT_EQ(accepted.outcome, Outcome::kAuthenticated) << accepted.log_reason;
}

TEST(OAuthBearerServer, TakesAnythingButControlAAfterTheErrorAsANewInitialResponse) {
  OAuthBearerServer server({});
  ASSERT_EQ(server.step(initial_response(unsecured_token(claims_expiring_in(-5))), kNowMs).outcome,
            Outcome::kChallenge);
  const SaslStep renewed =
      server.step(initial_response(unsecured_token(claims_expiring_in(60))), kNowMs);
  EXPECT_EQ(renewed.outcome, Outcome::kAuthenticated) << renewed.log_reason;
  EXPECT_EQ(renewed.user, "alice");

  OAuthBearerServer other({});
  ASSERT_EQ(other.step(initial_response(unsecured_token(claims_expiring_in(-5))), kNowMs).outcome,
            Outcome::kChallenge);
  const SaslStep garbage = other.step("not a response", kNowMs);
  EXPECT_EQ(garbage.outcome, Outcome::kFailed);
  EXPECT_TRUE(garbage.client_error.empty());
  EXPECT_EQ(other.step("\x01", kNowMs).outcome, Outcome::kFailed);  // the exchange has ended
}

TEST(OAuthBearerServer, RefusesAnAuthzidOtherThanThePrincipal) {
  OAuthBearerServer server({});
  const SaslStep step =
      server.step(initial_response(unsecured_token(claims_expiring_in(60)), "n,a=admin,"), kNowMs);
  EXPECT_EQ(step.outcome, Outcome::kFailed);
  EXPECT_NE(step.client_error.find("(admin)"), std::string::npos) << step.client_error;
  EXPECT_NE(step.client_error.find("(alice)"), std::string::npos) << step.client_error;
}

TEST(OAuthBearerServer, RefusesMalformedInitialResponsesAtOnce) {
  const std::string token = unsecured_token(claims_expiring_in(60));
  const std::string messages[] = {
      std::string("\x01"),  // no error to acknowledge
      "p=tls,,\x01"
      "auth=Bearer " +
          token + "\x01\x01",                  // channel binding
      "n,,auth=Bearer " + token + "\x01\x01",  // no separator
      "n,,\x01"
      "auth=Bearer " +
          token + "\x01",  // no final separator
      "n,,\x01"
      "auth=Basic " +
          token + "\x01\x01",  // not Bearer
      std::string("n,,\x01"
                  "auth=Bearer\x01\x01"),  // no token
      "n,,\x01"
      "auth=Bearer " +
          token +
          "\x01"
          "auth=x\x01\x01",  // two auth
      "n,,\x01"
      "au th=Bearer " +
          token + "\x01\x01",  // bad key
      std::string("n,,\x01"
                  "auth=Bearer tok\xffn\x01\x01"),  // bad token characters
      std::string("n,,\x01\x01"),                   // no auth
  };
  for (const std::string& message : messages) {
    OAuthBearerServer server({});
    const SaslStep step = server.step(message, kNowMs);
    EXPECT_EQ(step.outcome, Outcome::kFailed) << message;
    EXPECT_TRUE(step.client_error.empty()) << message;
  }
}

TEST(OAuthBearerServer, RefusesATokenOverItsBound) {
  OAuthBearerSettings settings;
  settings.max_token_bytes = 32;
  OAuthBearerServer server(settings);
  const SaslStep step =
      server.step(initial_response(unsecured_token(claims_expiring_in(60))), kNowMs);
  EXPECT_EQ(step.outcome, Outcome::kFailed);
  EXPECT_NE(step.log_reason.find("exceeds 32"), std::string::npos) << step.log_reason;
}

}  // namespace
}  // namespace kgroups::broker
