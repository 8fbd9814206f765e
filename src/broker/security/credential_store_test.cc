// SPDX-License-Identifier: Apache-2.0
#include "broker/security/credential_store.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "broker/runtime/memory_charge_for_tests.h"
#include "broker/security/base64.h"

namespace kgroups::broker {
namespace {

TEST(CredentialStore, KeepsSaltedKeysNotThePasswordAndChecksPlainPasswords) {
  CredentialStore store;
  ASSERT_EQ(store.set_password("alice", ScramMechanism::kSha512, "secret-pw"), std::nullopt);
  const ScramCredential* credential = store.find("alice", ScramMechanism::kSha512);
  ASSERT_NE(credential, nullptr);
  EXPECT_EQ(credential->iterations, kScramMinIterations);
  EXPECT_EQ(credential->salt.size(), CredentialStore::kSaltBytes);
  EXPECT_EQ(credential->stored_key.size, 64u);
  EXPECT_EQ(credential->salt.find("secret-pw"), std::string::npos);
  EXPECT_EQ(store.find("alice", ScramMechanism::kSha256), nullptr);
  EXPECT_TRUE(store.check_password("alice", "secret-pw"));
  EXPECT_FALSE(store.check_password("alice", "secret-pX"));
  EXPECT_FALSE(store.check_password("bob", "secret-pw"));
}

TEST(CredentialStore, PlainFallsBackToTheSha256CredentialWhenThereIsNoSha512One) {
  CredentialStore store;
  ASSERT_EQ(store.set_password("carol", ScramMechanism::kSha256, "pw256"), std::nullopt);
  EXPECT_TRUE(store.check_password("carol", "pw256"));
  EXPECT_FALSE(store.check_password("carol", "pw512"));
}

TEST(CredentialStore, TwoUsersWithOnePasswordGetDifferentSalts) {
  CredentialStore store;
  ASSERT_EQ(store.set_password("a", ScramMechanism::kSha256, "same"), std::nullopt);
  ASSERT_EQ(store.set_password("b", ScramMechanism::kSha256, "same"), std::nullopt);
  EXPECT_NE(store.find("a", ScramMechanism::kSha256)->salt,
            store.find("b", ScramMechanism::kSha256)->salt);
  EXPECT_FALSE(scram_digests_equal(store.find("a", ScramMechanism::kSha256)->stored_key,
                                   store.find("b", ScramMechanism::kSha256)->stored_key));
}

TEST(CredentialStore, SaltedPasswordFromARequestAuthenticatesThatPassword) {
  CredentialStore store;
  const std::string salt = "0123456789abcdef";
  const ScramDigest salted =
      scram_salted_password(ScramMechanism::kSha512, "from-request", scram_bytes(salt), 8192);
  ASSERT_EQ(store.set_salted_password("dave", ScramMechanism::kSha512, scram_bytes(salt), 8192,
                                      salted.view()),
            std::nullopt);
  EXPECT_EQ(store.find("dave", ScramMechanism::kSha512)->iterations, 8192);
  EXPECT_TRUE(store.check_password("dave", "from-request"));
  // A 32-byte salted password is a SCRAM-SHA-256 one: refused for SCRAM-SHA-512.
  const ScramDigest short_one =
      scram_salted_password(ScramMechanism::kSha256, "x", scram_bytes(salt), 4096);
  const CredentialRefusal refusal = store.set_salted_password(
      "dave", ScramMechanism::kSha512, scram_bytes(salt), 4096, short_one.view());
  ASSERT_TRUE(refusal.has_value());
  EXPECT_NE(refusal->find("needs 64"), std::string::npos) << *refusal;
  EXPECT_TRUE(store.check_password("dave", "from-request"));
}

TEST(CredentialStore, RefusesIterationsOutsideKafkasBounds) {
  CredentialStore store;
  EXPECT_TRUE(store.set_password("u", ScramMechanism::kSha256, "p", 4095).has_value());
  EXPECT_TRUE(store.set_password("u", ScramMechanism::kSha256, "p", 16385).has_value());
  EXPECT_EQ(store.set_password("u", ScramMechanism::kSha256, "p", 16384), std::nullopt);
  EXPECT_EQ(store.user_count(), 1u);
}

TEST(CredentialStore, RefusesBadNames) {
  CredentialStore store;
  EXPECT_TRUE(store.set_password("", ScramMechanism::kSha256, "p").has_value());
  EXPECT_TRUE(store.set_password("a:b", ScramMechanism::kSha256, "p").has_value());
  EXPECT_EQ(store.user_count(), 0u);
}

TEST(CredentialStore, DeletesOneMechanismThenTheUser) {
  CredentialStore store;
  ASSERT_EQ(store.set_password("erin", ScramMechanism::kSha256, "p"), std::nullopt);
  ASSERT_EQ(store.set_password("erin", ScramMechanism::kSha512, "p"), std::nullopt);
  EXPECT_TRUE(store.delete_credential("erin", ScramMechanism::kSha512));
  EXPECT_FALSE(store.delete_credential("erin", ScramMechanism::kSha512));
  EXPECT_EQ(store.user_count(), 1u);
  EXPECT_TRUE(store.check_password("erin", "p"));  // through the SCRAM-SHA-256 credential
  EXPECT_TRUE(store.delete_credential("erin", ScramMechanism::kSha256));
  EXPECT_EQ(store.user_count(), 0u);
  EXPECT_FALSE(store.check_password("erin", "p"));
}

TEST(CredentialStore, RefusesANewUserBeyondTheBoundButStillChangesExistingOnes) {
  CredentialStore store(2);
  ASSERT_EQ(store.set_password("u1", ScramMechanism::kSha256, "p"), std::nullopt);
  ASSERT_EQ(store.set_password("u2", ScramMechanism::kSha256, "p"), std::nullopt);
  const CredentialRefusal refusal = store.set_password("u3", ScramMechanism::kSha256, "p");
  ASSERT_TRUE(refusal.has_value());
  EXPECT_NE(refusal->find("limit"), std::string::npos) << *refusal;
  EXPECT_EQ(store.set_password("u2", ScramMechanism::kSha512, "q"), std::nullopt);
  EXPECT_EQ(store.user_count(), 2u);
  EXPECT_TRUE(store.has_room_for("u1"));
  EXPECT_FALSE(store.has_room_for("u3"));
}

TEST(CredentialStore, ChargesEachUsersBytesAndGivesThemBackAsItGoes) {
  CredentialStore store;
  std::size_t held = 0;
  ASSERT_TRUE(store.set_memory_charge(testing::charge_within(held, 1 << 20)));
  const ScramMechanism both[] = {ScramMechanism::kSha256, ScramMechanism::kSha512};
  ASSERT_EQ(store.set_password("frank", both, "p"), std::nullopt);
  const std::size_t frank = CredentialStore::kUserEntryBytes + 5 + 2 * CredentialStore::kSaltBytes;
  EXPECT_EQ(store.stored_bytes(), frank);
  EXPECT_EQ(held, frank);
  // A credential from a request keeps its own salt: a longer one costs more.
  const std::string salt(1000, 's');
  const ScramDigest salted =
      scram_salted_password(ScramMechanism::kSha256, "q", scram_bytes(salt), 4096);
  ASSERT_EQ(store.set_salted_password("frank", ScramMechanism::kSha256, scram_bytes(salt), 4096,
                                      salted.view()),
            std::nullopt);
  EXPECT_EQ(held, frank - CredentialStore::kSaltBytes + 1000);
  EXPECT_TRUE(store.delete_credential("frank", ScramMechanism::kSha256));
  EXPECT_EQ(held, frank - CredentialStore::kSaltBytes);
  EXPECT_TRUE(store.delete_credential("frank", ScramMechanism::kSha512));
  EXPECT_EQ(held, 0u);
  EXPECT_EQ(store.stored_bytes(), 0u);
  // A mechanism named twice is stored, and charged, once.
  const ScramMechanism twice[] = {ScramMechanism::kSha256, ScramMechanism::kSha256};
  ASSERT_EQ(store.set_password("frank", twice, "p"), std::nullopt);
  EXPECT_EQ(held, CredentialStore::kUserEntryBytes + 5 + CredentialStore::kSaltBytes);
  EXPECT_TRUE(store.delete_credential("frank", ScramMechanism::kSha256));
  EXPECT_EQ(held, 0u);
}

TEST(CredentialStore, RefusesWhatTheMemoryChargeHasNoRoomForAndChangesNothing) {
  CredentialStore store;
  std::size_t held = 0;
  const std::size_t one_user =
      CredentialStore::kUserEntryBytes + 2 + 2 * CredentialStore::kSaltBytes;
  ASSERT_TRUE(store.set_memory_charge(testing::charge_within(held, one_user + 100)));
  const ScramMechanism both[] = {ScramMechanism::kSha256, ScramMechanism::kSha512};
  ASSERT_EQ(store.set_password("u1", both, "p"), std::nullopt);
  EXPECT_FALSE(store.has_memory_for("u2", both, CredentialStore::kSaltBytes));
  const CredentialRefusal refusal = store.set_password("u2", both, "p");
  ASSERT_TRUE(refusal.has_value());
  EXPECT_NE(refusal->find("--max-memory"), std::string::npos) << *refusal;
  EXPECT_EQ(store.user_count(), 1u);
  EXPECT_EQ(held, one_user);
  // A bigger salt for an existing user does not fit either; the old credential stays.
  const std::string salt(500, 's');
  const ScramDigest salted =
      scram_salted_password(ScramMechanism::kSha512, "q", scram_bytes(salt), 4096);
  EXPECT_TRUE(store
                  .set_salted_password("u1", ScramMechanism::kSha512, scram_bytes(salt), 4096,
                                       salted.view())
                  .has_value());
  EXPECT_TRUE(store.check_password("u1", "p"));
  EXPECT_EQ(held, one_user);
  // Replacing a credential with one of the same size needs no more room.
  EXPECT_TRUE(store.has_memory_for("u1", both, CredentialStore::kSaltBytes));
  EXPECT_EQ(store.set_password("u1", both, "new"), std::nullopt);
  EXPECT_EQ(held, one_user);
}

TEST(CredentialStore, ChargesTheUsersItHasWhenTheChargeIsSetOrRefusesIt) {
  CredentialStore store;
  ASSERT_EQ(store.set_password("early", ScramMechanism::kSha256, "p"), std::nullopt);
  std::size_t held = 0;
  EXPECT_FALSE(store.set_memory_charge(testing::charge_within(held, 10)));
  EXPECT_EQ(held, 0u);
  ASSERT_TRUE(store.set_memory_charge(testing::charge_within(held, 1 << 20)));
  EXPECT_EQ(held, store.stored_bytes());
  EXPECT_GT(held, CredentialStore::kUserEntryBytes);
}

TEST(CredentialStore, ListsUserNamesInByteOrder) {
  CredentialStore store;
  EXPECT_TRUE(store.user_names().empty());
  for (const std::string_view user : {"zoe", "Bob", "alice"}) {
    ASSERT_EQ(store.set_password(user, ScramMechanism::kSha256, "p"), std::nullopt);
  }
  EXPECT_EQ(store.user_names(), (std::vector<std::string_view>{"Bob", "alice", "zoe"}));
}

TEST(CredentialUsersFile, LoadsUsersSkippingBlankLinesAndComments) {
  CredentialStore store;
  const std::string text =
      "# the demo users\n"
      "\n"
      "alice:alice-secret\r\n"
      "   \n"
      "bob:pass:with:colons\n"
      "  # indented comment\n";
  ASSERT_EQ(load_users_text(store, text, "users.txt"), std::nullopt);
  EXPECT_EQ(store.user_count(), 2u);
  EXPECT_TRUE(store.check_password("alice", "alice-secret"));
  EXPECT_TRUE(store.check_password("bob", "pass:with:colons"));
  EXPECT_NE(store.find("alice", ScramMechanism::kSha256), nullptr);
  EXPECT_NE(store.find("bob", ScramMechanism::kSha512), nullptr);
}

TEST(CredentialUsersFile, NamesTheFileAndLineOfEachMistake) {
  struct Case {
    std::string text;
    std::string expected;
  };
  const Case cases[] = {
      {"ok:1\nno-colon-here\n", "users.txt, line 2: no ':'"},
      {":password\n", "users.txt, line 1: the user name before ':' is empty"},
      {"#c\nuser:\n", "users.txt, line 2: user 'user' has an empty password"},
      {"a:1\nb:2\na:3\n", "users.txt, line 3: user 'a' is already listed on line 1"},
  };
  for (const Case& c : cases) {
    CredentialStore store;
    const CredentialRefusal refusal = load_users_text(store, c.text, "users.txt");
    ASSERT_TRUE(refusal.has_value()) << c.text;
    EXPECT_NE(refusal->find(c.expected), std::string::npos) << *refusal;
  }
}

TEST(CredentialUsersFile, RefusesUsersBeyondTheBoundNamingTheLine) {
  CredentialStore store(1);
  const CredentialRefusal refusal = load_users_text(store, "a:1\nb:2\n", "f");
  ASSERT_TRUE(refusal.has_value());
  EXPECT_NE(refusal->find("f, line 2:"), std::string::npos) << *refusal;
  EXPECT_EQ(store.user_count(), 1u);
}

TEST(CredentialUsersFile, ReadsAFileAndNamesOneThatCannotBeRead) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / "kgroups_credential_store_test_users.txt";
  std::ofstream(path) << "frank:frank-pw\n";
  CredentialStore store;
  EXPECT_EQ(load_users_file(store, path), std::nullopt);
  EXPECT_TRUE(store.check_password("frank", "frank-pw"));
  std::filesystem::remove(path);
  const CredentialRefusal refusal = load_users_file(store, path);
  ASSERT_TRUE(refusal.has_value());
  EXPECT_NE(refusal->find(path.string()), std::string::npos) << *refusal;
}

}  // namespace
}  // namespace kgroups::broker
