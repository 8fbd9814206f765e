// SPDX-License-Identifier: Apache-2.0
//
// The SCRAM mechanisms (SCRAM-SHA-256, SCRAM-SHA-512) and their key derivations from RFC 5802
// section 3, on OpenSSL: SaltedPassword = Hi(password, salt, i) (PBKDF2-HMAC), ClientKey,
// StoredKey = H(ClientKey), ServerKey, and the HMAC signatures over the AuthMessage. A digest
// lives in a fixed array (no allocation); digests are compared in constant time.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

namespace kgroups::broker {

enum class ScramMechanism { kSha256, kSha512 };

// The SASL name: "SCRAM-SHA-256" or "SCRAM-SHA-512".
std::string_view scram_mechanism_name(ScramMechanism mechanism);
// The mechanism a SASL name denotes (exact, upper case), or nullopt.
std::optional<ScramMechanism> scram_mechanism_named(std::string_view name);

// Kafka's bounds on a SCRAM credential's iteration count (ScramMechanism.minIterations, and
// the maximum AlterUserScramCredentials accepts).
inline constexpr int kScramMinIterations = 4096;
inline constexpr int kScramMaxIterations = 16384;

// One hash or HMAC output: the first `size` bytes of `bytes` (32 for SHA-256, 64 for SHA-512).
struct ScramDigest {
  std::array<unsigned char, 64> bytes{};
  std::size_t size = 0;

  [[nodiscard]] std::span<const unsigned char> view() const { return {bytes.data(), size}; }
};

// Constant-time equality (CRYPTO_memcmp); digests of different sizes are unequal.
bool scram_digests_equal(const ScramDigest& a, const ScramDigest& b);

// A digest from raw bytes (a proof, a salted password from a request); nullopt unless it has
// exactly the mechanism's digest size.
std::optional<ScramDigest> scram_digest_from_bytes(ScramMechanism mechanism,
                                                   std::span<const unsigned char> bytes);

// Hi(password, salt, iterations): PBKDF2 with the mechanism's HMAC.
ScramDigest scram_salted_password(ScramMechanism mechanism, std::string_view password,
                                  std::span<const unsigned char> salt, int iterations);
ScramDigest scram_hmac(ScramMechanism mechanism, std::span<const unsigned char> key,
                       std::string_view data);
ScramDigest scram_hash(ScramMechanism mechanism, std::span<const unsigned char> data);

// What the server keeps of a password: StoredKey = H(HMAC(SaltedPassword, "Client Key")) and
// ServerKey = HMAC(SaltedPassword, "Server Key").
struct ScramServerKeys {
  ScramDigest stored_key;
  ScramDigest server_key;
};
ScramServerKeys scram_server_keys(ScramMechanism mechanism, const ScramDigest& salted_password);

// A byte view of a string's characters, for the functions above.
inline std::span<const unsigned char> scram_bytes(std::string_view text) {
  return {reinterpret_cast<const unsigned char*>(text.data()), text.size()};
}

}  // namespace kgroups::broker
