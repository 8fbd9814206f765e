// SPDX-License-Identifier: Apache-2.0
//
// make_tls_server_context(): the TLS settings of kgroupsd's SSL and SASL_SSL listeners, as
// Kafka's ssl.* configs give them: the certificate chain and private key from one PEM file
// (ssl.keystore.location with ssl.keystore.type=PEM), the CAs that sign client certificates
// (ssl.truststore.location), and whether a client certificate is required, requested or not
// asked for (ssl.client.auth). TLS 1.2 and 1.3 only.
// Thread-safe: builds a new context.
#pragma once

#include <asio/ssl/context.hpp>

#include "broker/config/security_config.h"

namespace kgroups::broker {

// Throws std::invalid_argument naming the flag and file when the key material cannot be used
// (missing file, no certificate or key in it, a key that does not match the certificate).
asio::ssl::context make_tls_server_context(const SecurityConfig& config);

}  // namespace kgroups::broker
