// SPDX-License-Identifier: Apache-2.0
#include "broker/security/plain_mechanism.h"

#include <gtest/gtest.h>

namespace kgroups::broker {
namespace {

using namespace std::string_literals;
using Outcome = SaslStep::Outcome;

CredentialStore plain_store() {
  CredentialStore store;
  EXPECT_EQ(store.set_password("alice", ScramMechanism::kSha512, "alice-pw"), std::nullopt);
  return store;
}

TEST(PlainAuthenticator, AcceptsTheRightPasswordWithOrWithoutAMatchingAuthzid) {
  const CredentialStore store = plain_store();
  for (const std::string& message : {"\0alice\0alice-pw"s, "alice\0alice\0alice-pw"s}) {
    PlainAuthenticator plain(store);
    const SaslStep step = plain.step(message);
    ASSERT_EQ(step.outcome, Outcome::kAuthenticated) << step.log_reason;
    EXPECT_EQ(step.user, "alice");
    EXPECT_EQ(step.bytes, "");
    EXPECT_EQ(plain.step(message).outcome, Outcome::kFailed);  // one message only
  }
}

TEST(PlainAuthenticator, RefusesAWrongPasswordOrUnknownUserWithKafkasMessage) {
  const CredentialStore store = plain_store();
  for (const std::string& message : {"\0alice\0wrong"s, "\0bob\0alice-pw"s}) {
    PlainAuthenticator plain(store);
    const SaslStep step = plain.step(message);
    EXPECT_EQ(step.outcome, Outcome::kFailed);
    EXPECT_EQ(step.client_error, "Authentication failed: Invalid username or password");
  }
}

TEST(PlainAuthenticator, RefusesAnAuthzidOtherThanTheUser) {
  const CredentialStore store = plain_store();
  PlainAuthenticator plain(store);
  const SaslStep step = plain.step("admin\0alice\0alice-pw"s);
  EXPECT_EQ(step.outcome, Outcome::kFailed);
  EXPECT_NE(step.client_error.find("authorization id that is different from username"),
            std::string::npos)
      << step.client_error;
}

TEST(PlainAuthenticator, RefusesMalformedMessagesWithTheGenericMessage) {
  const CredentialStore store = plain_store();
  for (const std::string& message :
       {""s, "alice"s, "\0alice"s, "\0alice\0alice-pw\0"s, "\0\0alice-pw"s, "\0alice\0"s}) {
    PlainAuthenticator plain(store);
    const SaslStep step = plain.step(message);
    EXPECT_EQ(step.outcome, Outcome::kFailed) << message;
    EXPECT_TRUE(step.client_error.empty()) << message;
  }
}

TEST(PlainAuthenticator, RefusesOversizeMessages) {
  const CredentialStore store = plain_store();
  PlainAuthenticator plain(store);
  const SaslStep step =
      plain.step("\0alice\0"s + std::string(PlainAuthenticator::kMaxMessageBytes, 'p'));
  EXPECT_EQ(step.outcome, Outcome::kFailed);
  EXPECT_NE(step.log_reason.find("exceeds"), std::string::npos) << step.log_reason;
}

}  // namespace
}  // namespace kgroups::broker
