// SPDX-License-Identifier: Apache-2.0
#include "test_certificates.h"

#include <gtest/gtest.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>

#include "certs_command.h"

namespace kgroups::cli {
namespace {

struct X509Free {
  void operator()(X509* certificate) const { X509_free(certificate); }
};
struct KeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
using Certificate = std::unique_ptr<X509, X509Free>;
using Key = std::unique_ptr<EVP_PKEY, KeyFree>;

Certificate read_certificate(const std::string& pem) {
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  Certificate certificate(PEM_read_bio_X509(bio, nullptr, nullptr, nullptr));
  BIO_free(bio);
  return certificate;
}

Key read_key(const std::string& pem) {
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  Key key(PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr));
  BIO_free(bio);
  return key;
}

// Whether `leaf` verifies against `ca` alone for `purpose` (X509_PURPOSE_SSL_SERVER/CLIENT).
bool verifies(X509* ca, X509* leaf, int purpose) {
  X509_STORE* store = X509_STORE_new();
  X509_STORE_add_cert(store, ca);
  X509_STORE_CTX* context = X509_STORE_CTX_new();
  X509_STORE_CTX_init(context, store, leaf, nullptr);
  X509_STORE_CTX_set_purpose(context, purpose);
  const bool ok = X509_verify_cert(context) == 1;
  X509_STORE_CTX_free(context);
  X509_STORE_free(store);
  return ok;
}

std::string subject_of(X509* certificate) {
  char text[256];
  X509_NAME_oneline(X509_get_subject_name(certificate), text, sizeof text);
  return text;
}

TEST(TestCertificates, BrokerCertificateVerifiesForServerAuthWithLoopbackNames) {
  const TestCertificates made = make_test_certificates({});
  const Certificate ca = read_certificate(made.ca_certificate);
  const Certificate broker = read_certificate(made.broker_certificate);
  ASSERT_TRUE(ca && broker);
  EXPECT_TRUE(verifies(ca.get(), broker.get(), X509_PURPOSE_SSL_SERVER));
  EXPECT_EQ(X509_check_host(broker.get(), "localhost", 0, 0, nullptr), 1);
  EXPECT_EQ(X509_check_ip_asc(broker.get(), "127.0.0.1", 0), 1);
  EXPECT_EQ(X509_check_ip_asc(broker.get(), "::1", 0), 1);
  EXPECT_EQ(X509_check_host(broker.get(), "example.com", 0, 0, nullptr), 0);
}

TEST(TestCertificates, ClientCertificateCarriesItsCommonNameForClientAuth) {
  const TestCertificates made = make_test_certificates({.client_cn = "alice", .days = 2});
  const Certificate ca = read_certificate(made.ca_certificate);
  const Certificate client = read_certificate(made.client_certificate);
  ASSERT_TRUE(ca && client);
  EXPECT_TRUE(verifies(ca.get(), client.get(), X509_PURPOSE_SSL_CLIENT));
  EXPECT_FALSE(verifies(ca.get(), client.get(), X509_PURPOSE_SSL_SERVER));
  EXPECT_EQ(subject_of(client.get()), "/CN=alice");
}

TEST(TestCertificates, KeysArePkcs8P256AndMatchTheirCertificates) {
  const TestCertificates made = make_test_certificates({});
  EXPECT_TRUE(made.broker_key.starts_with("-----BEGIN PRIVATE KEY-----"));
  EXPECT_TRUE(made.client_key.starts_with("-----BEGIN PRIVATE KEY-----"));
  const Key broker_key = read_key(made.broker_key);
  const Key client_key = read_key(made.client_key);
  ASSERT_TRUE(broker_key && client_key);
  EXPECT_TRUE(EVP_PKEY_is_a(broker_key.get(), "EC"));
  char curve[64] = "";
  EVP_PKEY_get_group_name(broker_key.get(), curve, sizeof curve, nullptr);
  EXPECT_STREQ(curve, "prime256v1");
  EXPECT_EQ(
      X509_check_private_key(read_certificate(made.broker_certificate).get(), broker_key.get()), 1);
  EXPECT_EQ(
      X509_check_private_key(read_certificate(made.client_certificate).get(), client_key.get()), 1);
}

TEST(TestCertificates, EveryRunMakesANewCaWithRandomSerials) {
  const Certificate first = read_certificate(make_test_certificates({}).ca_certificate);
  const Certificate second = read_certificate(make_test_certificates({}).ca_certificate);
  EXPECT_NE(
      ASN1_INTEGER_cmp(X509_get0_serialNumber(first.get()), X509_get0_serialNumber(second.get())),
      0);
}

TEST(TestCertificates, RefusesAnEmptyCommonNameAndDaysOutOfRange) {
  EXPECT_THROW(make_test_certificates({.client_cn = ""}), std::invalid_argument);
  EXPECT_THROW(make_test_certificates({.days = 0}), std::invalid_argument);
  EXPECT_THROW(make_test_certificates({.days = 36'501}), std::invalid_argument);
}

class WriteTestCertificates : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ = std::filesystem::temp_directory_path() /
                 ("kgroups-certs-test-" + std::to_string(::getpid()));
    std::filesystem::remove_all(directory_);
  }
  void TearDown() override { std::filesystem::remove_all(directory_); }

  std::filesystem::path directory_;
};

mode_t mode_of(const std::filesystem::path& path) {
  struct stat status {};
  ::stat(path.c_str(), &status);
  return status.st_mode & 0777;
}

TEST_F(WriteTestCertificates, CreatesTheDirectoryAndKeepsKeysPrivate) {
  const auto written = write_test_certificates(make_test_certificates({}), directory_, false);
  EXPECT_EQ(written.size(), 7u);
  EXPECT_EQ(mode_of(directory_ / "ca.pem"), 0644u);
  EXPECT_EQ(mode_of(directory_ / "broker-cert.pem"), 0644u);
  EXPECT_EQ(mode_of(directory_ / "client-cert.pem"), 0644u);
  for (const char* secret : {"broker.pem", "broker-key.pem", "client.pem", "client-key.pem"}) {
    EXPECT_EQ(mode_of(directory_ / secret), 0600u) << secret;
  }
}

TEST_F(WriteTestCertificates, RefusesExistingFilesWithoutForceAndWritesNothing) {
  std::filesystem::create_directories(directory_);
  std::ofstream(directory_ / "client.pem") << "mine";
  try {
    write_test_certificates(make_test_certificates({}), directory_, false);
    FAIL() << "expected a refusal";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("already holds client.pem; pass --force"),
              std::string::npos)
        << error.what();
  }
  EXPECT_FALSE(std::filesystem::exists(directory_ / "ca.pem"));
  ::chmod((directory_ / "client.pem").c_str(), 0644);
  write_test_certificates(make_test_certificates({}), directory_, true);
  EXPECT_EQ(mode_of(directory_ / "client.pem"), 0600u);
  std::ifstream replaced(directory_ / "client.pem");
  std::string first_line;
  std::getline(replaced, first_line);
  EXPECT_EQ(first_line, "-----BEGIN CERTIFICATE-----");
}

}  // namespace
}  // namespace kgroups::cli
