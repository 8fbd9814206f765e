// SPDX-License-Identifier: Apache-2.0
#include "broker/security/credential_store.h"

#include <openssl/rand.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

namespace kgroups::broker {
namespace {

std::string random_salt() {
  std::string salt(CredentialStore::kSaltBytes, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(salt.data()), static_cast<int>(salt.size())) !=
      1) {
    std::abort();  // no randomness: a predictable salt would be worse than stopping
  }
  return salt;
}

ScramCredential credential_from_salted_password(ScramMechanism mechanism, std::string salt,
                                                int iterations,
                                                const ScramDigest& salted_password) {
  const ScramServerKeys keys = scram_server_keys(mechanism, salted_password);
  return {std::move(salt), iterations, keys.stored_key, keys.server_key};
}

bool password_matches(ScramMechanism mechanism, const ScramCredential& credential,
                      std::string_view password) {
  const ScramDigest salted = scram_salted_password(
      mechanism, password, scram_bytes(credential.salt), credential.iterations);
  return scram_digests_equal(scram_server_keys(mechanism, salted).stored_key,
                             credential.stored_key);
}

// A stand-in credential for unknown users, so PLAIN spends as long on them as on known ones.
const ScramCredential& decoy_credential() {
  static const ScramCredential kDecoy = credential_from_salted_password(
      ScramMechanism::kSha512, std::string(CredentialStore::kSaltBytes, 'k'), kScramMinIterations,
      scram_salted_password(ScramMechanism::kSha512, "decoy", scram_bytes("decoy"), 1));
  return kDecoy;
}

std::string line_error(std::string_view source, std::size_t line, std::string_view what) {
  std::ostringstream message;
  message << "users file " << source << ", line " << line << ": " << what;
  return message.str();
}

}  // namespace

bool CredentialStore::set_memory_charge(MemoryCharge charge) {
  if (!charge.hold(stored_bytes_)) return false;
  memory_charge_.release(stored_bytes_);
  memory_charge_ = std::move(charge);
  return true;
}

std::int64_t CredentialStore::bytes_change(std::string_view user,
                                           std::span<const ScramMechanism> mechanisms,
                                           std::size_t salt_bytes) const {
  static_assert(kUserEntryBytes >= sizeof(std::string) + sizeof(UserCredentials) + 48,
                "kUserEntryBytes must cover the entry and its map node");
  const auto it = users_.find(user);
  std::int64_t change =
      it == users_.end() ? static_cast<std::int64_t>(kUserEntryBytes + user.size()) : 0;
  for (std::size_t i = 0; i < mechanisms.size(); ++i) {
    const ScramMechanism mechanism = mechanisms[i];
    if (std::find(mechanisms.begin(), mechanisms.begin() + static_cast<std::ptrdiff_t>(i),
                  mechanism) != mechanisms.begin() + static_cast<std::ptrdiff_t>(i)) {
      continue;  // named twice: stored once
    }
    change += static_cast<std::int64_t>(salt_bytes);
    if (it != users_.end() && it->second.of(mechanism)) {
      change -= static_cast<std::int64_t>(it->second.of(mechanism)->salt.size());
    }
  }
  return change;
}

bool CredentialStore::has_memory_for(std::string_view user,
                                     std::span<const ScramMechanism> mechanisms,
                                     std::size_t salt_bytes) const {
  const std::int64_t change = bytes_change(user, mechanisms, salt_bytes);
  if (change <= 0) return true;
  if (!memory_charge_.hold(static_cast<std::size_t>(change))) return false;
  memory_charge_.release(static_cast<std::size_t>(change));
  return true;
}

CredentialRefusal CredentialStore::charge(std::string_view user, std::int64_t change) {
  if (change <= 0) {
    memory_charge_.release(static_cast<std::size_t>(-change));
    stored_bytes_ -= static_cast<std::size_t>(-change);
    return std::nullopt;
  }
  if (!memory_charge_.hold(static_cast<std::size_t>(change))) {
    return "cannot store user '" + std::string(user) +
           "': the memory the broker keeps users in (the groups' share of --max-memory) has no "
           "room for its " +
           std::to_string(change) + " bytes; delete users or groups, or raise --max-memory";
  }
  stored_bytes_ += static_cast<std::size_t>(change);
  return std::nullopt;
}

CredentialRefusal CredentialStore::check_new_credential(std::string_view user,
                                                        int iterations) const {
  if (user.empty()) return "a user name may not be empty";
  if (user.find(':') != std::string_view::npos) {
    return "user name '" + std::string(user) + "' holds ':', which a user name may not";
  }
  if (iterations < kScramMinIterations || iterations > kScramMaxIterations) {
    return "iterations " + std::to_string(iterations) + " is outside [" +
           std::to_string(kScramMinIterations) + ", " + std::to_string(kScramMaxIterations) + "]";
  }
  if (!has_room_for(user)) {
    return "cannot add user '" + std::string(user) + "': the broker already has " +
           std::to_string(max_users_) + " SASL users, its limit; delete one first";
  }
  return std::nullopt;
}

void CredentialStore::store(std::string_view user, ScramMechanism mechanism,
                            ScramCredential credential) {
  auto it = users_.find(user);
  if (it == users_.end()) it = users_.emplace(std::string(user), UserCredentials{}).first;
  it->second.of(mechanism) = std::move(credential);
}

CredentialRefusal CredentialStore::set_password(std::string_view user,
                                                std::span<const ScramMechanism> mechanisms,
                                                std::string_view password, int iterations) {
  if (CredentialRefusal refusal = check_new_credential(user, iterations)) return refusal;
  if (CredentialRefusal refusal = charge(user, bytes_change(user, mechanisms, kSaltBytes))) {
    return refusal;
  }
  for (const ScramMechanism mechanism : mechanisms) {
    std::string salt = random_salt();
    const ScramDigest salted =
        scram_salted_password(mechanism, password, scram_bytes(salt), iterations);
    store(user, mechanism,
          credential_from_salted_password(mechanism, std::move(salt), iterations, salted));
  }
  return std::nullopt;
}

CredentialRefusal CredentialStore::set_salted_password(
    std::string_view user, ScramMechanism mechanism, std::span<const unsigned char> salt,
    int iterations, std::span<const unsigned char> salted_password) {
  if (CredentialRefusal refusal = check_new_credential(user, iterations)) return refusal;
  if (salt.empty()) return "the salt may not be empty";
  const std::optional<ScramDigest> salted = scram_digest_from_bytes(mechanism, salted_password);
  if (!salted) {
    return "the salted password has " + std::to_string(salted_password.size()) + " bytes, but " +
           std::string(scram_mechanism_name(mechanism)) + " needs " +
           std::to_string(mechanism == ScramMechanism::kSha256 ? 32 : 64);
  }
  if (CredentialRefusal refusal =
          charge(user, bytes_change(user, std::span(&mechanism, 1), salt.size()))) {
    return refusal;
  }
  std::string salt_bytes(reinterpret_cast<const char*>(salt.data()), salt.size());
  store(user, mechanism,
        credential_from_salted_password(mechanism, std::move(salt_bytes), iterations, *salted));
  return std::nullopt;
}

bool CredentialStore::delete_credential(std::string_view user, ScramMechanism mechanism) {
  const auto it = users_.find(user);
  if (it == users_.end() || !it->second.of(mechanism)) return false;
  std::size_t freed = it->second.of(mechanism)->salt.size();
  it->second.of(mechanism).reset();
  if (!it->second.sha256 && !it->second.sha512) {
    freed += kUserEntryBytes + it->first.size();
    users_.erase(it);
  }
  (void)charge(user, -static_cast<std::int64_t>(freed));  // giving back is never refused
  return true;
}

const ScramCredential* CredentialStore::find(std::string_view user,
                                             ScramMechanism mechanism) const {
  const auto it = users_.find(user);
  if (it == users_.end() || !it->second.of(mechanism)) return nullptr;
  return &*it->second.of(mechanism);
}

std::vector<std::string_view> CredentialStore::user_names() const {
  std::vector<std::string_view> names;
  names.reserve(users_.size());
  for (const auto& [name, credentials] : users_) names.push_back(name);
  return names;
}

bool CredentialStore::check_password(std::string_view user, std::string_view password) const {
  if (const ScramCredential* sha512 = find(user, ScramMechanism::kSha512)) {
    return password_matches(ScramMechanism::kSha512, *sha512, password);
  }
  if (const ScramCredential* sha256 = find(user, ScramMechanism::kSha256)) {
    return password_matches(ScramMechanism::kSha256, *sha256, password);
  }
  password_matches(ScramMechanism::kSha512, decoy_credential(), password);
  return false;
}

CredentialRefusal load_users_text(CredentialStore& store, std::string_view text,
                                  std::string_view source, int iterations) {
  std::map<std::string_view, std::size_t> line_of_user;
  std::size_t line_number = 0;
  while (!text.empty()) {
    ++line_number;
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || line[first] == '#') continue;
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      return line_error(source, line_number,
                        "no ':' in it; write one user a line as USER:PASSWORD");
    }
    const std::string_view user = line.substr(0, colon);
    const std::string_view password = line.substr(colon + 1);
    if (user.empty()) {
      return line_error(source, line_number,
                        "the user name before ':' is empty; write USER:PASSWORD");
    }
    if (password.empty()) {
      return line_error(
          source, line_number,
          "user '" + std::string(user) + "' has an empty password; write USER:PASSWORD");
    }
    if (const auto seen = line_of_user.find(user); seen != line_of_user.end()) {
      return line_error(source, line_number,
                        "user '" + std::string(user) + "' is already listed on line " +
                            std::to_string(seen->second) + "; keep one line per user");
    }
    line_of_user.emplace(user, line_number);
    static constexpr ScramMechanism kBoth[] = {ScramMechanism::kSha256, ScramMechanism::kSha512};
    if (CredentialRefusal refusal = store.set_password(user, kBoth, password, iterations)) {
      return line_error(source, line_number, *refusal);
    }
  }
  return std::nullopt;
}

CredentialRefusal load_users_file(CredentialStore& store, const std::filesystem::path& path,
                                  int iterations) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    return "cannot read users file " + path.string() +
           "; check the path and its permissions (one USER:PASSWORD a line)";
  }
  std::ostringstream contents;
  contents << file.rdbuf();
  return load_users_text(store, contents.str(), path.string(), iterations);
}

}  // namespace kgroups::broker
