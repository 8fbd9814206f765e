// SPDX-License-Identifier: Apache-2.0
#include "broker/security/plain_mechanism.h"

#include <string>

namespace kgroups::broker {

SaslStep PlainAuthenticator::step(std::string_view message) {
  if (finished_) return SaslStep::failed("PLAIN: message after the exchange ended");
  finished_ = true;
  if (message.size() > kMaxMessageBytes) {
    return SaslStep::failed("PLAIN: message of " + std::to_string(message.size()) +
                            " bytes exceeds " + std::to_string(kMaxMessageBytes));
  }
  const std::size_t first_nul = message.find('\0');
  const std::size_t second_nul =
      first_nul == std::string_view::npos ? first_nul : message.find('\0', first_nul + 1);
  if (second_nul == std::string_view::npos ||
      message.find('\0', second_nul + 1) != std::string_view::npos) {
    return SaslStep::failed("PLAIN: the message must hold exactly two NULs");
  }
  const std::string_view authzid = message.substr(0, first_nul);
  const std::string_view user = message.substr(first_nul + 1, second_nul - first_nul - 1);
  const std::string_view password = message.substr(second_nul + 1);
  if (user.empty()) return SaslStep::failed("PLAIN: username not specified");
  if (password.empty()) return SaslStep::failed("PLAIN: password not specified");
  if (!store_.check_password(user, password)) {
    return SaslStep::refused("Authentication failed: Invalid username or password");
  }
  if (!authzid.empty() && authzid != user) {
    return SaslStep::refused(
        "Authentication failed: Client requested an authorization id that is different from "
        "username");
  }
  return SaslStep::authenticated(std::string(user));
}

}  // namespace kgroups::broker
