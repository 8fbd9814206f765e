// SPDX-License-Identifier: Apache-2.0
//
// CredentialStore: the broker's SASL users and their SCRAM credentials (RFC 5802): per user
// and mechanism a salt, an iteration count, StoredKey and ServerKey; never the password.
// SCRAM reads a credential; PLAIN checks an offered password by deriving the keys again from
// the stored salt and comparing StoredKey in constant time. Users come from a users file
// (load_users_file: one USER:PASSWORD a line) and later from AlterUserScramCredentials
// (set_salted_password, delete_credential). Bounded: at most max_users users, and the bytes
// they keep (stored_bytes: per user kUserEntryBytes, its name and its salts) can be charged to a
// share of the broker's memory (set_memory_charge: the broker charges the groups' share of
// --max-memory), which then bounds them too.
// Not thread-safe: owned by the broker's network thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "broker/runtime/memory_charge.h"
#include "broker/security/scram_keys.h"

namespace kgroups::broker {

// What the server keeps for one user and mechanism.
struct ScramCredential {
  std::string salt;  // raw bytes
  int iterations = 0;
  ScramDigest stored_key;
  ScramDigest server_key;
};

// Why a change to the store was refused, in words for the operator or the client; empty
// (nullopt) when it was made.
using CredentialRefusal = std::optional<std::string>;

class CredentialStore {
 public:
  // The default bound on users: enough for any test or demo cluster, small enough that a
  // runaway users file or AlterUserScramCredentials loop cannot eat the broker's memory.
  static constexpr std::size_t kDefaultMaxUsers = 10'000;
  // Salt length for credentials made from a password (Kafka's ScramFormatter uses 32 bytes too).
  static constexpr std::size_t kSaltBytes = 32;

  // What one user's entry keeps besides its name and salts: its map node, the name's string
  // and both mechanisms' credentials.
  static constexpr std::size_t kUserEntryBytes = 512;

  explicit CredentialStore(std::size_t max_users = kDefaultMaxUsers) : max_users_(max_users) {}
  // A copy would give the same bytes back twice; a move takes the charge along.
  CredentialStore(const CredentialStore&) = delete;
  CredentialStore& operator=(const CredentialStore&) = delete;
  CredentialStore(CredentialStore&&) = default;
  CredentialStore& operator=(CredentialStore&&) = default;

  // Where the store charges the bytes its users keep (and gives them back as users and
  // credentials go); an empty charge (the default) counts nothing. The bytes of the users stored
  // already are charged now: false, and nothing changed, when the charge has no room for them.
  // The charge must outlive the store's use of it.
  [[nodiscard]] bool set_memory_charge(MemoryCharge charge);

  // Sets `user`'s credential for each of `mechanisms` from a password: a fresh random salt
  // each, `iterations` rounds. All or nothing: refused for an empty or ':'-holding name, an
  // iteration count outside [kScramMinIterations, kScramMaxIterations], a new user beyond
  // max_users, or bytes the memory charge has no room for.
  CredentialRefusal set_password(std::string_view user, std::span<const ScramMechanism> mechanisms,
                                 std::string_view password, int iterations = kScramMinIterations);
  CredentialRefusal set_password(std::string_view user, ScramMechanism mechanism,
                                 std::string_view password, int iterations = kScramMinIterations) {
    return set_password(user, std::span(&mechanism, 1), password, iterations);
  }
  // Sets it from what AlterUserScramCredentials' upsertion carries: the salt, the iteration
  // count and SaltedPassword (which must have the mechanism's digest size).
  CredentialRefusal set_salted_password(std::string_view user, ScramMechanism mechanism,
                                        std::span<const unsigned char> salt, int iterations,
                                        std::span<const unsigned char> salted_password);
  // Deletes `user`'s credential for `mechanism` (the user goes once it has none, and its bytes
  // go back to the memory charge); false when there was none.
  bool delete_credential(std::string_view user, ScramMechanism mechanism);

  // `user`'s credential for `mechanism`, or null. The pointer lives until the next change.
  [[nodiscard]] const ScramCredential* find(std::string_view user, ScramMechanism mechanism) const;
  // PLAIN: whether `password` is `user`'s, checked against the SCRAM-SHA-512 credential (or
  // the SCRAM-SHA-256 one when the user has only that). An unknown user costs the same
  // derivation, so the answer's timing does not tell whether the user exists.
  [[nodiscard]] bool check_password(std::string_view user, std::string_view password) const;

  // Every user's name, in byte order. The views live until the next change.
  [[nodiscard]] std::vector<std::string_view> user_names() const;
  // Whether a credential for `user` fits under max_users: the user has one already, or there
  // is room for one more user.
  [[nodiscard]] bool has_room_for(std::string_view user) const {
    return users_.size() < max_users_ || users_.contains(user);
  }
  // Whether the memory charge has room for what setting `user`'s credentials for
  // `mechanism_count` more mechanisms with `salt_bytes` of salt each would add (a replaced
  // credential's salt counts as given back). Takes nothing.
  [[nodiscard]] bool has_memory_for(std::string_view user,
                                    std::span<const ScramMechanism> mechanisms,
                                    std::size_t salt_bytes) const;

  [[nodiscard]] std::size_t user_count() const { return users_.size(); }
  [[nodiscard]] std::size_t max_users() const { return max_users_; }
  // The bytes the users keep, as charged.
  [[nodiscard]] std::size_t stored_bytes() const { return stored_bytes_; }

 private:
  struct UserCredentials {
    std::optional<ScramCredential> sha256;
    std::optional<ScramCredential> sha512;

    [[nodiscard]] std::optional<ScramCredential>& of(ScramMechanism mechanism) {
      return mechanism == ScramMechanism::kSha256 ? sha256 : sha512;
    }
    [[nodiscard]] const std::optional<ScramCredential>& of(ScramMechanism mechanism) const {
      return mechanism == ScramMechanism::kSha256 ? sha256 : sha512;
    }
  };

  [[nodiscard]] CredentialRefusal check_new_credential(std::string_view user, int iterations) const;
  // How the stored bytes change when `user` gets credentials for `mechanisms`, each with
  // `salt_bytes` of salt.
  [[nodiscard]] std::int64_t bytes_change(std::string_view user,
                                          std::span<const ScramMechanism> mechanisms,
                                          std::size_t salt_bytes) const;
  // Takes a positive change from the memory charge (a refusal naming `user` when it has no
  // room) or gives a negative one back.
  CredentialRefusal charge(std::string_view user, std::int64_t change);
  void store(std::string_view user, ScramMechanism mechanism, ScramCredential credential);

  std::size_t max_users_;
  std::map<std::string, UserCredentials, std::less<>> users_;
  MemoryCharge memory_charge_;
  std::size_t stored_bytes_ = 0;
};

// Adds each user of a users file's text to `store`, with SCRAM-SHA-256 and SCRAM-SHA-512
// credentials made from its password (`iterations` rounds each). The text has one
// `USER:PASSWORD` a line, split at the first ':' (so a password may hold ':', a user name may
// not); blank lines and lines starting with '#' are skipped; a trailing '\r' is dropped.
// `source` names the file in messages. On the first bad line, returns a message naming
// `source`, the line and what to do; users of earlier lines stay added.
CredentialRefusal load_users_text(CredentialStore& store, std::string_view text,
                                  std::string_view source, int iterations = kScramMinIterations);
// The same for a file on disk; a file that cannot be read is refused with its path.
CredentialRefusal load_users_file(CredentialStore& store, const std::filesystem::path& path,
                                  int iterations = kScramMinIterations);

}  // namespace kgroups::broker
