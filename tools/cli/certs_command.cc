// SPDX-License-Identifier: Apache-2.0
#include "certs_command.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace kgroups::cli {
namespace {

constexpr mode_t kPublicMode = 0644;
constexpr mode_t kPrivateMode = 0600;  // the file holds a private key

struct OutputFile {
  const char* name;
  std::string content;
  mode_t mode;
  const char* use;  // one line of `kgroups certs`'s report
};

std::vector<OutputFile> output_files(const TestCertificates& certificates) {
  const TestCertificates& c = certificates;
  return {
      {"ca.pem", c.ca_certificate, kPublicMode,
       "the CA: clients' ssl.ca.location, kgroupsd's --ssl-truststore-location"},
      {"broker.pem", c.broker_certificate + c.ca_certificate + c.broker_key, kPrivateMode,
       "broker chain + key: kgroupsd --ssl-keystore-location"},
      {"broker-cert.pem", c.broker_certificate, kPublicMode, "broker certificate alone"},
      {"broker-key.pem", c.broker_key, kPrivateMode, "broker key alone (PKCS#8)"},
      {"client.pem", c.client_certificate + c.client_key, kPrivateMode, "client certificate + key"},
      {"client-cert.pem", c.client_certificate, kPublicMode,
       "client certificate: ssl.certificate.location"},
      {"client-key.pem", c.client_key, kPrivateMode, "client key: ssl.key.location"},
  };
}

std::string system_error_text(int error) { return std::strerror(error); }

struct FileCloser {
  explicit FileCloser(int file) : descriptor(file) {}
  int descriptor;
  FileCloser(const FileCloser&) = delete;
  FileCloser& operator=(const FileCloser&) = delete;
  ~FileCloser() { ::close(descriptor); }
};

void write_file(const std::filesystem::path& path, const OutputFile& file, bool force) {
  const int flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | (force ? 0 : O_EXCL);
  const int descriptor = ::open(path.c_str(), flags, file.mode);
  if (descriptor < 0) {
    throw std::runtime_error("certs: cannot create " + path.string() + ": " +
                             system_error_text(errno));
  }
  const FileCloser closer(descriptor);
  // fchmod: an existing file replaced under --force keeps no wider mode, and umask is moot.
  if (::fchmod(descriptor, file.mode) != 0) {
    throw std::runtime_error("certs: cannot set the mode of " + path.string() + ": " +
                             system_error_text(errno));
  }
  std::size_t written = 0;
  while (written < file.content.size()) {
    const ssize_t count =
        ::write(descriptor, file.content.data() + written, file.content.size() - written);
    if (count < 0 && errno == EINTR) continue;
    if (count < 0) {
      throw std::runtime_error("certs: cannot write " + path.string() + ": " +
                               system_error_text(errno));
    }
    written += static_cast<std::size_t>(count);
  }
}

struct CertsOptions {
  std::string directory;
  std::string client_cn = "client";
  int days = 30;
  bool force = false;
};

int run_certs(const CertsOptions& options, std::ostream& out) {
  const TestCertificates certificates =
      make_test_certificates(TestCertificateOptions{options.client_cn, options.days});
  const std::filesystem::path directory(options.directory);
  write_test_certificates(certificates, directory, options.force);
  out << "kgroups certs: a throwaway CA and certificates in " << directory.string()
      << " (EC P-256, valid for " << options.days << " days, client CN=" << options.client_cn
      << "):\n";
  for (const OutputFile& file : output_files(certificates)) {
    out << "  " << file.name << std::string(17 - std::strlen(file.name), ' ') << file.use << "\n";
  }
  return 0;
}

}  // namespace

std::vector<std::string> write_test_certificates(const TestCertificates& certificates,
                                                 const std::filesystem::path& directory,
                                                 bool force) {
  const std::vector<OutputFile> files = output_files(certificates);
  std::error_code error;
  if (std::filesystem::exists(directory, error) &&
      !std::filesystem::is_directory(directory, error)) {
    throw std::runtime_error("certs: " + directory.string() +
                             " exists and is not a directory; name a directory");
  }
  if (!force) {
    std::string existing;
    for (const OutputFile& file : files) {
      if (std::filesystem::exists(directory / file.name, error)) {
        existing += existing.empty() ? "" : ", ";
        existing += file.name;
      }
    }
    if (!existing.empty()) {
      throw std::runtime_error("certs: " + directory.string() + " already holds " + existing +
                               "; pass --force to replace them, or name another directory");
    }
  }
  std::filesystem::create_directories(directory, error);
  if (error) {
    throw std::runtime_error("certs: cannot create the directory " + directory.string() + ": " +
                             error.message());
  }
  std::vector<std::string> names;
  for (const OutputFile& file : files) {
    write_file(directory / file.name, file, force);
    names.emplace_back(file.name);
  }
  return names;
}

void add_certs_command(CLI::App& app, CommandAction& action) {
  auto options = std::make_shared<CertsOptions>();
  CLI::App* certs = app.add_subcommand(
      "certs",
      "write a throwaway CA and broker and client certificates (EC P-256, PEM) into DIR, for "
      "tests of kgroupsd's TLS listeners; not for production");
  certs->add_option("DIR", options->directory, "the directory to write into (created if missing)")
      ->required();
  certs
      ->add_option("--client-cn", options->client_cn,
                   "the client certificate's common name; kgroupsd's principal for it is "
                   "User:CN=<NAME>")
      ->capture_default_str();
  certs->add_option("--days", options->days, "how long every certificate is valid")
      ->capture_default_str()
      ->check(CLI::Range(1, 36'500));
  certs->add_flag("--force", options->force, "replace files DIR already holds");
  certs->callback([options, &action] {
    action = [options](std::ostream& out) { return run_certs(*options, out); };
  });
}

}  // namespace kgroups::cli
