// SPDX-License-Identifier: Apache-2.0
#include "test_certificates.h"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

namespace kgroups::cli {
namespace {

constexpr int kMaxDays = 36'500;
constexpr long kBackdateSeconds = 60;  // tolerates a client clock a little behind
constexpr int kSerialBits = 159;       // positive and at most 20 octets (RFC 5280 4.1.2.2)

struct KeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct CertificateFree {
  void operator()(X509* certificate) const { X509_free(certificate); }
};
struct BioFree {
  void operator()(BIO* bio) const { BIO_free(bio); }
};
struct BignumFree {
  void operator()(BIGNUM* number) const { BN_free(number); }
};
struct ExtensionFree {
  void operator()(X509_EXTENSION* extension) const { X509_EXTENSION_free(extension); }
};
using Key = std::unique_ptr<EVP_PKEY, KeyFree>;
using Certificate = std::unique_ptr<X509, CertificateFree>;

// Throws std::runtime_error naming `what` and OpenSSL's reason, when `ok` is false.
void require(bool ok, const char* what) {
  if (ok) return;
  char reason[256] = "no reason given";
  if (const unsigned long code = ERR_get_error(); code != 0) {
    ERR_error_string_n(code, reason, sizeof reason);
  }
  ERR_clear_error();
  throw std::runtime_error(std::string("certs: OpenSSL could not ") + what + ": " + reason);
}

Key make_p256_key() {
  Key key(EVP_EC_gen("P-256"));
  require(key != nullptr, "generate an EC P-256 key");
  return key;
}

void set_random_serial(X509* certificate) {
  std::unique_ptr<BIGNUM, BignumFree> serial(BN_new());
  require(serial != nullptr &&
              BN_rand(serial.get(), kSerialBits, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ANY) == 1,
          "draw a random serial number");
  require(BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(certificate)) != nullptr,
          "set the serial number");
}

// `issuer` is the certificate itself for the self-signed CA.
void add_extension(X509* certificate, X509* issuer, int nid, const char* value) {
  X509V3_CTX context;
  X509V3_set_ctx_nodb(&context);
  X509V3_set_ctx(&context, issuer, certificate, nullptr, nullptr, 0);
  std::unique_ptr<X509_EXTENSION, ExtensionFree> extension(
      X509V3_EXT_conf_nid(nullptr, &context, nid, value));
  require(extension != nullptr, "build a certificate extension");
  require(X509_add_ext(certificate, extension.get(), -1) == 1, "add a certificate extension");
}

struct Extension {
  int nid;
  const char* value;
};

// A certificate for `subject_key` named CN=<common_name>, signed by `issuer_key` on behalf of
// `issuer` (nullptr: self-signed), valid for `days`, with `extensions` in order.
Certificate make_certificate(const std::string& common_name, EVP_PKEY* subject_key, X509* issuer,
                             EVP_PKEY* issuer_key, int days,
                             const std::vector<Extension>& extensions) {
  Certificate certificate(X509_new());
  require(certificate != nullptr, "allocate a certificate");
  X509* self = certificate.get();
  require(X509_set_version(self, X509_VERSION_3) == 1, "set the certificate version");
  set_random_serial(self);
  require(X509_gmtime_adj(X509_getm_notBefore(self), -kBackdateSeconds) != nullptr &&
              X509_gmtime_adj(X509_getm_notAfter(self), 86'400L * days) != nullptr,
          "set the validity period");
  X509_NAME* subject = X509_get_subject_name(self);
  require(X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_UTF8,
                                     reinterpret_cast<const unsigned char*>(common_name.c_str()),
                                     -1, -1, 0) == 1,
          "set the subject name");
  X509* signer = issuer != nullptr ? issuer : self;
  require(X509_set_issuer_name(self, X509_get_subject_name(signer)) == 1, "set the issuer name");
  require(X509_set_pubkey(self, subject_key) == 1, "set the public key");
  for (const Extension& extension : extensions) {
    add_extension(self, signer, extension.nid, extension.value);
  }
  require(X509_sign(self, issuer_key, EVP_sha256()) > 0, "sign the certificate");
  return certificate;
}

template <typename Write>
std::string pem_text(Write write, const char* what) {
  std::unique_ptr<BIO, BioFree> bio(BIO_new(BIO_s_mem()));
  require(bio != nullptr && write(bio.get()) == 1, what);
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio.get(), &data);
  return {data, static_cast<std::size_t>(size)};
}

std::string certificate_pem(X509* certificate) {
  return pem_text([certificate](BIO* bio) { return PEM_write_bio_X509(bio, certificate); },
                  "write a certificate as PEM");
}

// PKCS#8, unencrypted ("BEGIN PRIVATE KEY").
std::string key_pem(EVP_PKEY* key) {
  return pem_text(
      [key](BIO* bio) {
        return PEM_write_bio_PrivateKey(bio, key, nullptr, nullptr, 0, nullptr, nullptr);
      },
      "write a private key as PEM");
}

void validate(const TestCertificateOptions& options) {
  if (options.client_cn.empty()) {
    throw std::invalid_argument("certs: --client-cn must not be empty");
  }
  if (options.days < 1 || options.days > kMaxDays) {
    throw std::invalid_argument("certs: --days must be 1 to " + std::to_string(kMaxDays) +
                                ", got " + std::to_string(options.days));
  }
}

}  // namespace

TestCertificates make_test_certificates(const TestCertificateOptions& options) {
  validate(options);
  const Key ca_key = make_p256_key();
  const Certificate ca =
      make_certificate("kgroups test CA", ca_key.get(), nullptr, ca_key.get(), options.days,
                       {{NID_basic_constraints, "critical,CA:TRUE,pathlen:0"},
                        {NID_key_usage, "critical,keyCertSign,cRLSign"},
                        {NID_subject_key_identifier, "hash"},
                        {NID_authority_key_identifier, "keyid:always"}});

  const Key broker_key = make_p256_key();
  const Certificate broker =
      make_certificate("localhost", broker_key.get(), ca.get(), ca_key.get(), options.days,
                       {{NID_basic_constraints, "critical,CA:FALSE"},
                        {NID_key_usage, "critical,digitalSignature"},
                        {NID_ext_key_usage, "serverAuth,clientAuth"},
                        {NID_subject_alt_name, "DNS:localhost,IP:127.0.0.1,IP:::1"},
                        {NID_subject_key_identifier, "hash"},
                        {NID_authority_key_identifier, "keyid:always"}});

  const Key client_key = make_p256_key();
  const Certificate client =
      make_certificate(options.client_cn, client_key.get(), ca.get(), ca_key.get(), options.days,
                       {{NID_basic_constraints, "critical,CA:FALSE"},
                        {NID_key_usage, "critical,digitalSignature"},
                        {NID_ext_key_usage, "clientAuth"},
                        {NID_subject_key_identifier, "hash"},
                        {NID_authority_key_identifier, "keyid:always"}});

  return TestCertificates{certificate_pem(ca.get()), certificate_pem(broker.get()),
                          key_pem(broker_key.get()), certificate_pem(client.get()),
                          key_pem(client_key.get())};
}

}  // namespace kgroups::cli
