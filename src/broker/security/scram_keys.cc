// SPDX-License-Identifier: Apache-2.0
#include "broker/security/scram_keys.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <cstdlib>
#include <cstring>

namespace kgroups::broker {
namespace {

const EVP_MD* digest_of(ScramMechanism mechanism) {
  return mechanism == ScramMechanism::kSha256 ? EVP_sha256() : EVP_sha512();
}

std::size_t digest_size(ScramMechanism mechanism) {
  return mechanism == ScramMechanism::kSha256 ? 32 : 64;
}

// OpenSSL fails these calls only when it cannot allocate or the digest is missing from the
// library: nothing a caller can handle, so the process stops rather than authenticate wrongly.
void require(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

std::string_view scram_mechanism_name(ScramMechanism mechanism) {
  return mechanism == ScramMechanism::kSha256 ? "SCRAM-SHA-256" : "SCRAM-SHA-512";
}

std::optional<ScramMechanism> scram_mechanism_named(std::string_view name) {
  if (name == "SCRAM-SHA-256") return ScramMechanism::kSha256;
  if (name == "SCRAM-SHA-512") return ScramMechanism::kSha512;
  return std::nullopt;
}

bool scram_digests_equal(const ScramDigest& a, const ScramDigest& b) {
  return a.size == b.size && CRYPTO_memcmp(a.bytes.data(), b.bytes.data(), a.size) == 0;
}

std::optional<ScramDigest> scram_digest_from_bytes(ScramMechanism mechanism,
                                                   std::span<const unsigned char> bytes) {
  if (bytes.size() != digest_size(mechanism)) return std::nullopt;
  ScramDigest digest;
  digest.size = bytes.size();
  std::memcpy(digest.bytes.data(), bytes.data(), bytes.size());
  return digest;
}

ScramDigest scram_salted_password(ScramMechanism mechanism, std::string_view password,
                                  std::span<const unsigned char> salt, int iterations) {
  ScramDigest digest;
  digest.size = digest_size(mechanism);
  require(PKCS5_PBKDF2_HMAC(password.data(), static_cast<int>(password.size()), salt.data(),
                            static_cast<int>(salt.size()), iterations, digest_of(mechanism),
                            static_cast<int>(digest.size), digest.bytes.data()) == 1);
  return digest;
}

ScramDigest scram_hmac(ScramMechanism mechanism, std::span<const unsigned char> key,
                       std::string_view data) {
  ScramDigest digest;
  unsigned int size = 0;
  require(HMAC(digest_of(mechanism), key.data(), static_cast<int>(key.size()),
               reinterpret_cast<const unsigned char*>(data.data()), data.size(),
               digest.bytes.data(), &size) != nullptr);
  digest.size = size;
  return digest;
}

ScramDigest scram_hash(ScramMechanism mechanism, std::span<const unsigned char> data) {
  ScramDigest digest;
  unsigned int size = 0;
  require(EVP_Digest(data.data(), data.size(), digest.bytes.data(), &size, digest_of(mechanism),
                     nullptr) == 1);
  digest.size = size;
  return digest;
}

ScramServerKeys scram_server_keys(ScramMechanism mechanism, const ScramDigest& salted_password) {
  const ScramDigest client_key = scram_hmac(mechanism, salted_password.view(), "Client Key");
  return {scram_hash(mechanism, client_key.view()),
          scram_hmac(mechanism, salted_password.view(), "Server Key")};
}

}  // namespace kgroups::broker
