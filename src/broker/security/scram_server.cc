// SPDX-License-Identifier: Apache-2.0
#include "broker/security/scram_server.h"

#include <openssl/rand.h>

#include <array>
#include <cstdlib>

#include "broker/security/base64.h"

namespace kgroups::broker {
namespace {

// One "x=value" attribute of a SCRAM message.
struct ScramAttribute {
  std::string_view name;
  std::string_view value;
};

// Takes the next comma-separated attribute off `rest`; nullopt when `rest` is empty or the
// attribute has no '='.
std::optional<ScramAttribute> next_attribute(std::string_view& rest) {
  if (rest.empty()) return std::nullopt;
  const std::size_t comma = rest.find(',');
  const std::string_view attribute = rest.substr(0, comma);
  rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
  const std::size_t equals = attribute.find('=');
  if (equals == std::string_view::npos || equals == 0) return std::nullopt;
  return ScramAttribute{attribute.substr(0, equals), attribute.substr(equals + 1)};
}

// RFC 5802's `printable`: %x21-2B / %x2D-7E, at least one.
bool is_printable_nonce(std::string_view nonce) {
  if (nonce.empty()) return false;
  for (const char c : nonce) {
    if (c < 0x21 || c > 0x7E || c == ',') return false;
  }
  return true;
}

// The gs2 header's length when `message` starts with one without channel binding: "n,," or
// "n,a=<saslname>,"; 0 when it does not.
std::size_t gs2_header_length(std::string_view message) {
  if (message.starts_with("n,,")) return 3;
  if (!message.starts_with("n,a=")) return 0;
  const std::size_t end = message.find(',', 4);
  return end == std::string_view::npos ? 0 : end + 1;
}

}  // namespace

std::string random_scram_nonce() {
  constexpr std::string_view kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  std::array<unsigned char, 32> random{};
  if (RAND_bytes(random.data(), static_cast<int>(random.size())) != 1) std::abort();
  std::string nonce(random.size(), '\0');
  for (std::size_t i = 0; i < random.size(); ++i)
    nonce[i] = kAlphabet[random[i] % kAlphabet.size()];
  return nonce;
}

std::string scram_saslname_encode(std::string_view name) {
  std::string encoded;
  encoded.reserve(name.size());
  for (const char c : name) {
    if (c == ',') {
      encoded += "=2C";
    } else if (c == '=') {
      encoded += "=3D";
    } else {
      encoded += c;
    }
  }
  return encoded;
}

std::optional<std::string> scram_saslname_decode(std::string_view saslname) {
  std::string name;
  name.reserve(saslname.size());
  for (std::size_t i = 0; i < saslname.size(); ++i) {
    if (saslname[i] != '=') {
      name += saslname[i];
      continue;
    }
    const std::string_view escape = saslname.substr(i, 3);
    if (escape == "=2C") {
      name += ',';
    } else if (escape == "=3D") {
      name += '=';
    } else {
      return std::nullopt;
    }
    i += 2;
  }
  if (name.empty()) return std::nullopt;
  return name;
}

ScramServer::ScramServer(ScramMechanism mechanism, const CredentialStore& store,
                         ScramNonceSource nonce_source)
    : mechanism_(mechanism), store_(store), nonce_source_(std::move(nonce_source)) {}

SaslStep ScramServer::step(std::string_view message) {
  if (message.size() > kMaxMessageBytes) {
    return fail("SCRAM message of " + std::to_string(message.size()) + " bytes exceeds " +
                std::to_string(kMaxMessageBytes));
  }
  switch (state_) {
    case State::kAwaitClientFirst:
      return receive_client_first(message);
    case State::kAwaitClientFinal:
      return receive_client_final(message);
    case State::kFinished:
      break;
  }
  return fail("SCRAM message after the exchange ended");
}

SaslStep ScramServer::fail(std::string_view reason) {
  state_ = State::kFinished;
  credential_ = {};
  return SaslStep::failed(
      std::string(scram_mechanism_name(mechanism_)).append(": ").append(reason));
}

SaslStep ScramServer::receive_client_first(std::string_view message) {
  const std::size_t header_length = gs2_header_length(message);
  if (header_length == 0) {
    if (message.starts_with("p=") || message.starts_with("y,")) {
      return fail("channel binding is not supported");
    }
    return fail(R"(invalid client first message: the gs2 header must be "n,," or "n,a=USER,")");
  }
  const std::string_view header = message.substr(0, header_length);
  const std::string_view bare = message.substr(header_length);
  std::string_view rest = bare;
  std::optional<ScramAttribute> attribute = next_attribute(rest);
  if (attribute && attribute->name == "m")
    return fail("the reserved m= attribute is not supported");
  if (!attribute || attribute->name != "n") return fail("invalid client first message: no n=");
  std::optional<std::string> user = scram_saslname_decode(attribute->value);
  if (!user) return fail("invalid client first message: bad saslname");
  if (header.size() > 3) {
    const std::optional<std::string> authzid =
        scram_saslname_decode(header.substr(4, header.size() - 5));
    if (!authzid || *authzid != *user) {
      return fail("the client asked for an authorization id that is not its user name");
    }
  }
  attribute = next_attribute(rest);
  if (!attribute || attribute->name != "r" || !is_printable_nonce(attribute->value)) {
    return fail("invalid client first message: no valid r=");
  }
  const std::string_view client_nonce = attribute->value;
  while (!rest.empty()) {
    const std::optional<ScramAttribute> extension = next_attribute(rest);
    if (!extension) return fail("invalid client first message: malformed extension");
    if (extension->name == "tokenauth") return fail("delegation tokens are not supported");
  }
  const ScramCredential* credential = store_.find(*user, mechanism_);
  if (credential == nullptr) return fail("unknown user '" + *user + "'");
  if (credential->iterations < kScramMinIterations)
    return fail("credential has too few iterations");
  const std::string server_nonce = nonce_source_();
  if (!is_printable_nonce(server_nonce)) return fail("the server nonce is not printable");
  credential_ = *credential;
  user_ = std::move(*user);
  gs2_header_ = std::string(header);
  client_first_bare_ = std::string(bare);
  nonce_ = std::string(client_nonce) + server_nonce;
  server_first_ = "r=" + nonce_ + ",s=" + base64_encode(scram_bytes(credential_.salt)) +
                  ",i=" + std::to_string(credential_.iterations);
  state_ = State::kAwaitClientFinal;
  return SaslStep::challenge(server_first_);
}

SaslStep ScramServer::receive_client_final(std::string_view message) {
  const std::size_t proof_at = message.rfind(",p=");
  if (proof_at == std::string_view::npos) return fail("invalid client final message: no p=");
  const std::string_view without_proof = message.substr(0, proof_at);
  const std::optional<std::string> proof_bytes = base64_decode(message.substr(proof_at + 3));
  if (!proof_bytes) return fail("invalid client final message: proof is not base64");
  const std::optional<ScramDigest> proof =
      scram_digest_from_bytes(mechanism_, scram_bytes(*proof_bytes));
  if (!proof) return fail("invalid client final message: proof has the wrong size");
  std::string_view rest = without_proof;
  const std::optional<ScramAttribute> binding = next_attribute(rest);
  if (!binding || binding->name != "c" ||
      binding->value != base64_encode(scram_bytes(gs2_header_))) {
    return fail(
        "invalid client final message: channel binding must be c= the base64 of the "
        "gs2 header");
  }
  const std::optional<ScramAttribute> nonce = next_attribute(rest);
  if (!nonce || nonce->name != "r") return fail("invalid client final message: no r=");
  // Kafka's ScramSaslServer checks only that the client's nonce ends with the combined one:
  // librdkafka (2.0) sends its own nonce again in front of it.
  if (!nonce->value.ends_with(nonce_)) {
    return fail("invalid client nonce in the client final message");
  }
  std::string auth_message;
  auth_message.reserve(client_first_bare_.size() + server_first_.size() + without_proof.size() + 2);
  auth_message.append(client_first_bare_).append(",").append(server_first_).append(",");
  auth_message.append(without_proof);
  if (!proof_is_valid(*proof, auth_message))
    return fail("invalid client proof for '" + user_ + "'");
  const ScramDigest server_signature =
      scram_hmac(mechanism_, credential_.server_key.view(), auth_message);
  state_ = State::kFinished;
  credential_ = {};
  return SaslStep::authenticated(std::move(user_), "v=" + base64_encode(server_signature.view()));
}

bool ScramServer::proof_is_valid(const ScramDigest& proof, std::string_view auth_message) const {
  const ScramDigest client_signature =
      scram_hmac(mechanism_, credential_.stored_key.view(), auth_message);
  ScramDigest client_key = proof;
  for (std::size_t i = 0; i < client_key.size; ++i) {
    client_key.bytes[i] ^= client_signature.bytes[i];
  }
  return scram_digests_equal(scram_hash(mechanism_, client_key.view()), credential_.stored_key);
}

}  // namespace kgroups::broker
