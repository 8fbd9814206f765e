// SPDX-License-Identifier: Apache-2.0
#include "broker/security/connection_auth.h"

#include <gtest/gtest.h>

#include <array>

namespace kgroups::broker {
namespace {

using namespace std::string_literals;
using Outcome = SaslReply::Outcome;
using Handshake = ConnectionAuth::HandshakeOutcome;
using Stage = ConnectionAuth::Stage;

constexpr std::int64_t kNowMs = 1'700'000'000'000;
// The mechanisms these tests enable.
const std::array<std::string, 2>& enabled() {
  static const std::array<std::string, 2> kMechanisms{"PLAIN", "SCRAM-SHA-256"};
  return kMechanisms;
}

CredentialStore users() {
  CredentialStore store;
  EXPECT_EQ(load_users_text(store, "alice:alice-pw\nbob:bob-pw\n", "test"), std::nullopt);
  return store;
}

TEST(ConnectionAuth, APlaintextOrSslConnectionIsAuthenticatedFromTheStart) {
  const ConnectionAuth anonymous(false, "127.0.0.1");
  EXPECT_TRUE(anonymous.authenticated());
  EXPECT_EQ(anonymous.principal(), "User:ANONYMOUS");
  const ConnectionAuth certificate(false, "127.0.0.1", "User:CN=client");
  EXPECT_EQ(certificate.principal(), "User:CN=client");
}

TEST(ConnectionAuth, ASaslConnectionNeedsAHandshakeThenTheExchange) {
  const CredentialStore store = users();
  ConnectionAuth auth(true, "127.0.0.1", "User:CN=ignored-under-sasl");
  EXPECT_EQ(auth.stage(), Stage::kAwaitingHandshake);
  EXPECT_EQ(auth.principal(), "User:ANONYMOUS");
  EXPECT_EQ(auth.handshake("PLAIN", 1, enabled(), store, {}), Handshake::kAccepted);
  EXPECT_EQ(auth.stage(), Stage::kAwaitingAuthenticate);
  const SaslReply reply = auth.authenticate("\0alice\0alice-pw"s, kNowMs);
  EXPECT_EQ(reply.outcome, Outcome::kAuthenticated);
  EXPECT_TRUE(auth.authenticated());
  EXPECT_EQ(auth.principal(), "User:alice");
  EXPECT_EQ(auth.session_expiry_ms(), std::nullopt);
}

TEST(ConnectionAuth, AVersionZeroHandshakeMeansRawTokens) {
  const CredentialStore store = users();
  ConnectionAuth auth(true, "127.0.0.1");
  EXPECT_EQ(auth.handshake("PLAIN", 0, enabled(), store, {}), Handshake::kAccepted);
  EXPECT_EQ(auth.stage(), Stage::kAwaitingRawToken);
}

TEST(ConnectionAuth, RefusesAMechanismNotEnabledAndOneItDoesNotKnow) {
  const CredentialStore store = users();
  ConnectionAuth auth(true, "127.0.0.1");
  EXPECT_EQ(auth.handshake("SCRAM-SHA-512", 1, enabled(), store, {}),
            Handshake::kUnsupportedMechanism);
  EXPECT_EQ(auth.handshake("GSSAPI", 1, enabled(), store, {}), Handshake::kUnsupportedMechanism);
  EXPECT_EQ(auth.stage(), Stage::kAwaitingHandshake);
}

TEST(ConnectionAuth, AHandshakeWithoutSaslOrMidExchangeIsIllegal) {
  const CredentialStore store = users();
  ConnectionAuth plaintext(false, "127.0.0.1");
  EXPECT_EQ(plaintext.handshake("PLAIN", 1, enabled(), store, {}), Handshake::kIllegalState);
  ConnectionAuth auth(true, "127.0.0.1");
  ASSERT_EQ(auth.handshake("PLAIN", 1, enabled(), store, {}), Handshake::kAccepted);
  EXPECT_EQ(auth.handshake("PLAIN", 1, enabled(), store, {}), Handshake::kIllegalState);
}

TEST(ConnectionAuth, AuthenticateBeforeAHandshakeFailsAndSaysSo) {
  ConnectionAuth auth(true, "127.0.0.1");
  const SaslReply reply = auth.authenticate("\0alice\0alice-pw"s, kNowMs);
  EXPECT_EQ(reply.outcome, Outcome::kFailed);
  EXPECT_NE(reply.error_message.find("before SaslHandshake"), std::string::npos);
  EXPECT_FALSE(auth.authenticated());
}

TEST(ConnectionAuth, AWrongPasswordLeavesTheConnectionUnauthenticated) {
  const CredentialStore store = users();
  ConnectionAuth auth(true, "127.0.0.1");
  ASSERT_EQ(auth.handshake("PLAIN", 1, enabled(), store, {}), Handshake::kAccepted);
  EXPECT_EQ(auth.authenticate("\0alice\0wrong"s, kNowMs).outcome, Outcome::kFailed);
  EXPECT_FALSE(auth.authenticated());
  EXPECT_EQ(auth.principal(), "User:ANONYMOUS");
}

TEST(ConnectionAuth, TheSessionLifetimeSetsAnExpiryAndReauthenticationKeepsThePrincipal) {
  const CredentialStore store = users();
  SaslSettings settings;
  settings.connections_max_reauth_ms = 60'000;
  ConnectionAuth auth(true, "127.0.0.1");
  ASSERT_EQ(auth.handshake("PLAIN", 1, enabled(), store, settings), Handshake::kAccepted);
  ASSERT_EQ(auth.authenticate("\0alice\0alice-pw"s, kNowMs).outcome, Outcome::kAuthenticated);
  ASSERT_EQ(auth.session_expiry_ms(), kNowMs + 60'000);
  EXPECT_FALSE(auth.session_expired(kNowMs + 59'999));
  EXPECT_TRUE(auth.session_expired(kNowMs + 60'000));

  // A v0 handshake cannot re-authenticate; a v1 one can, as the same user.
  EXPECT_EQ(auth.handshake("PLAIN", 0, enabled(), store, settings), Handshake::kIllegalState);
  ASSERT_EQ(auth.handshake("PLAIN", 1, enabled(), store, settings), Handshake::kAccepted);
  EXPECT_TRUE(auth.reauthenticating());
  EXPECT_TRUE(auth.authenticated());
  ASSERT_EQ(auth.authenticate("\0alice\0alice-pw"s, kNowMs + 50'000).outcome,
            Outcome::kAuthenticated);
  EXPECT_FALSE(auth.reauthenticating());
  EXPECT_EQ(auth.session_expiry_ms(), kNowMs + 110'000);

  ASSERT_EQ(auth.handshake("PLAIN", 1, enabled(), store, settings), Handshake::kAccepted);
  const SaslReply other = auth.authenticate("\0bob\0bob-pw"s, kNowMs + 60'000);
  EXPECT_EQ(other.outcome, Outcome::kFailed);
  EXPECT_EQ(other.error_message,
            "Cannot change principals during re-authentication from User:alice: User:bob");
  EXPECT_EQ(auth.principal(), "User:alice");
}

}  // namespace
}  // namespace kgroups::broker
