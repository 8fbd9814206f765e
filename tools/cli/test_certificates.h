// SPDX-License-Identifier: Apache-2.0
//
// TestCertificates: a throwaway certificate authority and the broker and client certificates
// it signs, for tests of TLS listeners (`kgroups certs`, the Broker fixtures). Everything is
// PEM text made in memory with OpenSSL 3's libcrypto: EC P-256 keys written as unencrypted
// PKCS#8, random 159-bit serials, SHA-256 signatures. The broker certificate names
// DNS:localhost, IP:127.0.0.1 and IP:::1 and is for serverAuth and clientAuth; the client
// certificate is CN=<client_cn>, for clientAuth. The CA's key is not kept: nothing more can
// be signed with it, which is what makes the set throwaway. Not for production use.
// Thread-safe: a pure function.
#pragma once

#include <string>

namespace kgroups::cli {

struct TestCertificateOptions {
  std::string client_cn = "client";  // the client certificate's subject: CN=<client_cn>
  int days = 30;                     // validity of every certificate, from one minute ago
};

struct TestCertificates {
  std::string ca_certificate;      // PEM, the self-signed CA (CN=kgroups test CA)
  std::string broker_certificate;  // PEM, CN=localhost, signed by the CA
  std::string broker_key;          // PEM, unencrypted PKCS#8
  std::string client_certificate;  // PEM, CN=<client_cn>, signed by the CA
  std::string client_key;          // PEM, unencrypted PKCS#8
};

// Makes a fresh CA and both certificates. Throws std::invalid_argument for an empty
// client_cn or days outside 1..36500, std::runtime_error if OpenSSL fails (with its reason).
TestCertificates make_test_certificates(const TestCertificateOptions& options);

}  // namespace kgroups::cli
