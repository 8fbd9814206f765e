// SPDX-License-Identifier: Apache-2.0
//
// Transport: the byte stream under one Kafka connection — the TCP socket itself (PLAINTEXT,
// SASL_PLAINTEXT) or TLS over it (SSL, SASL_SSL; OpenSSL through asio::ssl). The connection
// reads and writes through it without knowing which. Over TLS a gathered write is copied into
// one staging buffer of a TLS record's size (kTlsStagingBytes) first, because TLS encrypts a
// contiguous buffer per record; over TCP the buffers go to writev as they are (zero-copy Fetch
// stays zero-copy). After the TLS handshake, peer_principal() is Kafka's principal of a
// verified client certificate: "User:" and its subject as RFC 2253 writes it ("CN=client,O=x").
// Not thread-safe: one per connection, on the broker's network thread.
#pragma once

#include <asio/awaitable.hpp>
#include <asio/buffer.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/ssl/context.hpp>
#include <asio/ssl/stream.hpp>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <system_error>
#include <vector>

namespace kgroups::broker {

class Transport {
 public:
  // TLS over `socket` as a server with `tls`'s certificates (which must outlive it), or
  // plaintext when `tls` is null.
  Transport(asio::ip::tcp::socket socket, asio::ssl::context* tls);

  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  [[nodiscard]] bool tls() const { return tls_.has_value(); }
  asio::ip::tcp::socket& socket() { return tls_ ? tls_->next_layer() : *plain_; }
  [[nodiscard]] const asio::ip::tcp::socket& socket() const {
    return tls_ ? tls_->next_layer() : *plain_;
  }

  // TLS: the server handshake (a no-op over TCP). `error` says why it failed.
  asio::awaitable<void> handshake(std::error_code& error);
  // "User:<subject>" of a verified client certificate, or empty (none, or not TLS).
  [[nodiscard]] std::string peer_principal();

  asio::awaitable<std::size_t> read_some(asio::mutable_buffer buffer, std::error_code& error);
  // Writes some of `buffers` (at least one byte unless it fails); returns how many.
  asio::awaitable<std::size_t> write_some(std::span<const asio::const_buffer> buffers,
                                          std::error_code& error);
  // Whether bytes already decrypted may wait inside TLS, so that waiting for the socket to be
  // readable could miss them (the connection then reads instead of waiting).
  [[nodiscard]] bool may_hold_input() const { return tls_.has_value(); }

  // Aborts pending reads and writes (they complete with operation_aborted).
  void cancel();
  void shutdown_receive();
  void close();

  // The plaintext bytes one TLS record carries at most.
  static constexpr std::size_t kTlsStagingBytes = std::size_t{16} * 1024;

 private:
  std::optional<asio::ip::tcp::socket> plain_;
  std::optional<asio::ssl::stream<asio::ip::tcp::socket>> tls_;
  std::vector<unsigned char> staging_;  // TLS only: gathered bytes of one write
};

}  // namespace kgroups::broker
