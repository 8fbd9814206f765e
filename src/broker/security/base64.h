// SPDX-License-Identifier: Apache-2.0
//
// Base64 (RFC 4648 section 4, with padding) as SCRAM's salts, proofs and signatures carry it,
// and base64url (section 5, padding optional) as a JWS carries its header and claims.
// Decoding is strict: a character outside the alphabet, a misplaced '=' or bits left over in
// the last character make it fail (nullopt), so a tampered message is refused, not guessed.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace kgroups::broker {

std::string base64_encode(std::span<const unsigned char> bytes);
std::optional<std::string> base64_decode(std::string_view text);
std::optional<std::string> base64url_decode(std::string_view text);

}  // namespace kgroups::broker
