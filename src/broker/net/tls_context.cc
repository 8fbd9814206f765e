// SPDX-License-Identifier: Apache-2.0
#include "broker/net/tls_context.h"

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

namespace kgroups::broker {
namespace {

std::string openssl_reason(const std::error_code& error) {
  const unsigned long code = ERR_peek_last_error();
  ERR_clear_error();
  if (code != 0) {
    char text[256];
    ERR_error_string_n(code, text, sizeof text);
    return text;
  }
  return error.message();
}

void require_file(const std::string& path, const char* flag) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    throw std::invalid_argument(std::string(flag) + ": \"" + path +
                                "\" is not a readable file (give a PEM file; `kgroups certs DIR` "
                                "makes a throwaway CA and broker certificate for tests)");
  }
}

}  // namespace

asio::ssl::context make_tls_server_context(const SecurityConfig& config) {
  asio::ssl::context context(asio::ssl::context::tls_server);
  SSL_CTX_set_min_proto_version(context.native_handle(), TLS1_2_VERSION);
  context.set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                      asio::ssl::context::no_sslv3 | asio::ssl::context::single_dh_use);
  if (config.ssl_keystore_location.empty()) {
    throw std::invalid_argument(
        "an SSL or SASL_SSL listener needs --ssl-keystore-location FILE (a PEM file with the "
        "broker's certificate chain and private key; `kgroups certs DIR` makes one for tests)");
  }
  const std::string& keystore = config.ssl_keystore_location;
  require_file(keystore, "--ssl-keystore-location");
  std::error_code error;
  context.use_certificate_chain_file(keystore, error);
  if (error) {
    throw std::invalid_argument("--ssl-keystore-location: no certificate chain in \"" + keystore +
                                "\": " + openssl_reason(error));
  }
  context.use_private_key_file(keystore, asio::ssl::context::pem, error);
  if (error) {
    throw std::invalid_argument("--ssl-keystore-location: no usable private key in \"" + keystore +
                                "\" (it must be unencrypted PEM, after the "
                                "certificates): " +
                                openssl_reason(error));
  }
  if (SSL_CTX_check_private_key(context.native_handle()) != 1) {
    throw std::invalid_argument("--ssl-keystore-location: the private key in \"" + keystore +
                                "\" does not match its certificate");
  }
  if (!config.ssl_truststore_location.empty()) {
    require_file(config.ssl_truststore_location, "--ssl-truststore-location");
    context.load_verify_file(config.ssl_truststore_location, error);
    if (error) {
      throw std::invalid_argument("--ssl-truststore-location: no CA certificates in \"" +
                                  config.ssl_truststore_location + "\": " + openssl_reason(error));
    }
  } else if (config.ssl_client_auth != SslClientAuth::kNone) {
    throw std::invalid_argument(
        "--ssl-client-auth requested or required needs --ssl-truststore-location FILE (PEM CAs "
        "that sign the clients' certificates)");
  }
  switch (config.ssl_client_auth) {
    case SslClientAuth::kNone:
      context.set_verify_mode(asio::ssl::verify_none);
      break;
    case SslClientAuth::kRequested:
      context.set_verify_mode(asio::ssl::verify_peer);
      // A certificate that fails verification fails the handshake; none at all is fine.
      break;
    case SslClientAuth::kRequired:
      context.set_verify_mode(asio::ssl::verify_peer | asio::ssl::verify_fail_if_no_peer_cert);
      break;
  }
  return context;
}

}  // namespace kgroups::broker
