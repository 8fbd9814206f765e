// SPDX-License-Identifier: Apache-2.0
//
// CredentialStore: the broker's SASL users and their SCRAM credentials (RFC 5802): per user
// and mechanism a salt, an iteration count, StoredKey and ServerKey; never the password.
// SCRAM reads a credential; PLAIN checks an offered password by deriving the keys again from
// the stored salt and comparing StoredKey in constant time. Users come from a users file
// (load_users_file: one USER:PASSWORD a line) and later from AlterUserScramCredentials
// (set_salted_password, delete_credential). Bounded: at most max_users users.
// Not thread-safe: owned by the broker's network thread.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

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

  explicit CredentialStore(std::size_t max_users = kDefaultMaxUsers) : max_users_(max_users) {}

  // Sets `user`'s credential for `mechanism` from a password: a fresh random salt,
  // `iterations` rounds. Refused for an empty or ':'-holding name, an iteration count outside
  // [kScramMinIterations, kScramMaxIterations], or a new user beyond max_users.
  CredentialRefusal set_password(std::string_view user, ScramMechanism mechanism,
                                 std::string_view password, int iterations = kScramMinIterations);
  // Sets it from what AlterUserScramCredentials' upsertion carries: the salt, the iteration
  // count and SaltedPassword (which must have the mechanism's digest size).
  CredentialRefusal set_salted_password(std::string_view user, ScramMechanism mechanism,
                                        std::span<const unsigned char> salt, int iterations,
                                        std::span<const unsigned char> salted_password);
  // Deletes `user`'s credential for `mechanism` (the user goes once it has none); false when
  // there was none.
  bool delete_credential(std::string_view user, ScramMechanism mechanism);

  // `user`'s credential for `mechanism`, or null. The pointer lives until the next change.
  const ScramCredential* find(std::string_view user, ScramMechanism mechanism) const;
  // PLAIN: whether `password` is `user`'s, checked against the SCRAM-SHA-512 credential (or
  // the SCRAM-SHA-256 one when the user has only that). An unknown user costs the same
  // derivation, so the answer's timing does not tell whether the user exists.
  bool check_password(std::string_view user, std::string_view password) const;

  // Every user's name, in byte order. The views live until the next change.
  std::vector<std::string_view> user_names() const;
  // Whether a credential for `user` fits under max_users: the user has one already, or there
  // is room for one more user.
  bool has_room_for(std::string_view user) const {
    return users_.size() < max_users_ || users_.contains(user);
  }

  std::size_t user_count() const { return users_.size(); }
  std::size_t max_users() const { return max_users_; }

 private:
  struct UserCredentials {
    std::optional<ScramCredential> sha256;
    std::optional<ScramCredential> sha512;

    std::optional<ScramCredential>& of(ScramMechanism mechanism) {
      return mechanism == ScramMechanism::kSha256 ? sha256 : sha512;
    }
    const std::optional<ScramCredential>& of(ScramMechanism mechanism) const {
      return mechanism == ScramMechanism::kSha256 ? sha256 : sha512;
    }
  };

  CredentialRefusal check_new_credential(std::string_view user, int iterations) const;
  void store(std::string_view user, ScramMechanism mechanism, ScramCredential credential);

  std::size_t max_users_;
  std::map<std::string, UserCredentials, std::less<>> users_;
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
