// SPDX-License-Identifier: Apache-2.0
#include "broker/net/transport.h"

#include <openssl/bio.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <algorithm>
#include <asio/redirect_error.hpp>
#include <asio/use_awaitable.hpp>
#include <cstring>
#include <memory>
#include <utility>

namespace kgroups::broker {
namespace {

// The subject of `certificate` in RFC 2253 form, as Java's X500Principal.getName() gives it.
std::string rfc2253_subject(X509* certificate) {
  const std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), &BIO_free);
  if (!bio) return {};
  if (X509_NAME_print_ex(bio.get(), X509_get_subject_name(certificate), 0, XN_FLAG_RFC2253) < 0) {
    return {};
  }
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio.get(), &data);
  return size > 0 ? std::string(data, static_cast<std::size_t>(size)) : std::string();
}

}  // namespace

Transport::Transport(asio::ip::tcp::socket socket, asio::ssl::context* tls) {
  if (tls == nullptr) {
    plain_.emplace(std::move(socket));
    return;
  }
  tls_.emplace(std::move(socket), *tls);
  staging_.resize(kTlsStagingBytes);
}

asio::awaitable<void> Transport::handshake(std::error_code& error) {
  error.clear();
  if (!tls_) co_return;
  co_await tls_->async_handshake(asio::ssl::stream_base::server,
                                 asio::redirect_error(asio::use_awaitable, error));
}

std::string Transport::peer_principal() {
  if (!tls_) return {};
  SSL* ssl = tls_->native_handle();
  if (SSL_get_verify_result(ssl) != X509_V_OK) return {};
  X509* certificate = SSL_get1_peer_certificate(ssl);
  if (certificate == nullptr) return {};
  std::string subject = rfc2253_subject(certificate);
  X509_free(certificate);
  return subject.empty() ? std::string() : "User:" + subject;
}

asio::awaitable<std::size_t> Transport::read_some(asio::mutable_buffer buffer,
                                                  std::error_code& error) {
  if (tls_) {
    co_return co_await tls_->async_read_some(buffer,
                                             asio::redirect_error(asio::use_awaitable, error));
  }
  co_return co_await plain_->async_read_some(buffer,
                                             asio::redirect_error(asio::use_awaitable, error));
}

asio::awaitable<std::size_t> Transport::write_some(std::span<const asio::const_buffer> buffers,
                                                   std::error_code& error) {
  if (!tls_) {
    co_return co_await plain_->async_write_some(buffers,
                                                asio::redirect_error(asio::use_awaitable, error));
  }
  // One TLS record's worth of the gathered buffers, contiguous. A first buffer as large as a
  // record goes as it is, without the copy.
  if (!buffers.empty() && buffers.front().size() >= kTlsStagingBytes) {
    co_return co_await tls_->async_write_some(buffers.front(),
                                              asio::redirect_error(asio::use_awaitable, error));
  }
  std::size_t staged = 0;
  for (const asio::const_buffer& buffer : buffers) {
    const std::size_t take = std::min(buffer.size(), staging_.size() - staged);
    std::memcpy(staging_.data() + staged, buffer.data(), take);
    staged += take;
    if (staged == staging_.size()) break;
  }
  co_return co_await tls_->async_write_some(asio::buffer(staging_.data(), staged),
                                            asio::redirect_error(asio::use_awaitable, error));
}

void Transport::cancel() {
  std::error_code ignored;
  socket().cancel(ignored);
}

void Transport::shutdown_receive() {
  std::error_code ignored;
  socket().shutdown(asio::ip::tcp::socket::shutdown_receive, ignored);
}

void Transport::close() {
  std::error_code ignored;
  socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  socket().close(ignored);
}

}  // namespace kgroups::broker
