// SPDX-License-Identifier: Apache-2.0
//
// `kgroups certs DIR`: writes a throwaway CA and a broker and a client certificate
// (test_certificates.h) into DIR for tests of kgroupsd's TLS listeners: ca.pem; broker.pem
// (certificate chain + key, for --ssl-keystore-location), broker-cert.pem, broker-key.pem;
// client.pem, client-cert.pem, client-key.pem. Files holding a key are mode 0600. DIR is
// created if missing; existing files are refused (all checked before any is written) unless
// --force.
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>

#include "command_action.h"
#include "test_certificates.h"

namespace kgroups::cli {

// Adds the `certs` subcommand to `app`; picking it stores its action in `action` (which must
// outlive the parse).
void add_certs_command(CLI::App& app, CommandAction& action);

// Writes `certificates` into `directory` as `kgroups certs` does and returns the names of the
// files written. Throws std::runtime_error, having written nothing, if a file exists and
// `force` is false or `directory` cannot be created; if writing itself fails midway, the
// files already written stay and the message names the one that failed.
std::vector<std::string> write_test_certificates(const TestCertificates& certificates,
                                                 const std::filesystem::path& directory,
                                                 bool force);

}  // namespace kgroups::cli
