// SPDX-License-Identifier: Apache-2.0
#include "broker/connection.h"

#include <algorithm>
#include <asio/buffer.hpp>
#include <asio/experimental/awaitable_operators.hpp>
#include <asio/redirect_error.hpp>
#include <asio/use_awaitable.hpp>
#include <asio/write.hpp>
#include <cstring>
#include <utility>

#include "broker/api_table.h"
#include "broker/logger.h"
#include "protocol/request_header.h"
#include "protocol/wire_reader.h"
#include "protocol/wire_writer.h"

namespace kgroups::broker {
namespace {

constexpr std::size_t kReadChunkBytes = std::size_t{64} * 1024;  // minimum free space for each read

std::string endpoint_text(const asio::ip::tcp::socket& socket) {
  std::error_code error;
  const auto endpoint = socket.remote_endpoint(error);
  if (error) return "unknown-peer";
  return endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
}

std::int32_t read_size_prefix(const std::uint8_t* bytes) {
  return static_cast<std::int32_t>((std::uint32_t{bytes[0]} << 24) |
                                   (std::uint32_t{bytes[1]} << 16) |
                                   (std::uint32_t{bytes[2]} << 8) | std::uint32_t{bytes[3]});
}

std::string api_text(const protocol::RequestHeader& header) {
  return std::string(protocol::api_name(header.api_key)) + " (key " +
         std::to_string(static_cast<int>(header.api_key)) + ") v" +
         std::to_string(header.api_version);
}

}  // namespace

Connection::Connection(asio::ip::tcp::socket socket, Broker& broker)
    : socket_(std::move(socket)),
      broker_(broker),
      peer_(endpoint_text(socket_)),
      write_wakeup_(socket_.get_executor(), asio::steady_timer::time_point::max()) {
  std::error_code ignored;
  socket_.set_option(asio::ip::tcp::no_delay(true), ignored);
}

asio::awaitable<void> Connection::run() {
  using asio::experimental::awaitable_operators::operator&&;
  log_info(peer_ + " connected");
  try {
    // The writer ends after the reader once every queued response is written (or the socket
    // fails); the reader ends on EOF, error or bad input.
    co_await (read_loop() && write_loop());
  } catch (const std::exception& e) {
    log_warn(peer_ + " connection error: " + e.what());
  }
  std::error_code ignored;
  socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  socket_.close(ignored);
  log_info(peer_ + " disconnected after " + std::to_string(requests_) + " requests");
}

asio::awaitable<void> Connection::read_loop() {
  const auto max_frame = static_cast<std::size_t>(broker_.config().max_frame_bytes);
  read_buffer_.resize(kReadChunkBytes);
  for (;;) {
    // Handle every complete frame already buffered.
    bool need_more = false;
    while (!need_more) {
      const std::size_t buffered = read_end_ - read_begin_;
      if (buffered < 4) {
        need_more = true;
        break;
      }
      const std::int32_t size = read_size_prefix(read_buffer_.data() + read_begin_);
      if (size < 0 || static_cast<std::size_t>(size) > max_frame) {
        log_warn(peer_ + " sent a frame of " + std::to_string(size) + " bytes, outside 0.." +
                 std::to_string(max_frame) + "; closing the connection");
        reading_done_ = true;
        write_wakeup_.cancel();
        co_return;
      }
      const auto frame_bytes = static_cast<std::size_t>(size);
      if (buffered - 4 < frame_bytes) {
        // The frame must end up contiguous: move its start to the front, and once the buffer
        // is nearly full, double it (up to the frame's size). Memory thus grows with the bytes
        // that actually arrive: a size prefix alone cannot make the broker allocate up to
        // max_frame_bytes.
        if (read_buffer_.size() - read_begin_ < 4 + frame_bytes) {
          std::memmove(read_buffer_.data(), read_buffer_.data() + read_begin_, buffered);
          read_end_ = buffered;
          read_begin_ = 0;
          if (read_buffer_.size() - read_end_ < kReadChunkBytes / 4) {
            read_buffer_.resize(std::min(
                4 + frame_bytes, std::max(read_buffer_.size() * 2, read_end_ + kReadChunkBytes)));
          }
        }
        need_more = true;
        break;
      }
      const std::span<const std::uint8_t> frame(read_buffer_.data() + read_begin_ + 4, frame_bytes);
      const FrameOutcome outcome = co_await handle_frame(frame);
      read_begin_ += 4 + frame_bytes;
      if (outcome == FrameOutcome::kClose) {
        reading_done_ = true;
        write_wakeup_.cancel();
        co_return;
      }
    }
    if (read_begin_ == read_end_) read_begin_ = read_end_ = 0;
    if (read_buffer_.size() - read_end_ < kReadChunkBytes / 4) {
      // Little room left at the end: move the partial frame to the front, or grow.
      const std::size_t buffered = read_end_ - read_begin_;
      std::memmove(read_buffer_.data(), read_buffer_.data() + read_begin_, buffered);
      read_begin_ = 0;
      read_end_ = buffered;
      if (read_buffer_.size() - read_end_ < kReadChunkBytes / 4) {
        read_buffer_.resize(read_end_ + kReadChunkBytes);
      }
    }
    std::error_code error;
    const std::size_t received = co_await socket_.async_read_some(
        asio::buffer(read_buffer_.data() + read_end_, read_buffer_.size() - read_end_),
        asio::redirect_error(asio::use_awaitable, error));
    if (error) {
      if (read_end_ != read_begin_ && error == asio::error::eof) {
        log_warn(peer_ + " closed the connection in the middle of a frame (" +
                 std::to_string(read_end_ - read_begin_) + " bytes unread)");
      } else if (error != asio::error::eof && error != asio::error::operation_aborted &&
                 error != asio::error::connection_reset) {
        log_warn(peer_ + " read failed: " + error.message());
      }
      reading_done_ = true;
      write_wakeup_.cancel();
      co_return;
    }
    read_end_ += received;
  }
}

asio::awaitable<Connection::FrameOutcome> Connection::handle_frame(
    std::span<const std::uint8_t> frame) {
  protocol::WireReader reader(frame);
  protocol::Result<protocol::RequestHeader> header = protocol::decode_request_header(reader);
  if (!header) {
    log_warn(peer_ + " sent a malformed request header (" + std::to_string(frame.size()) +
             "-byte frame); closing the connection");
    co_return FrameOutcome::kClose;
  }
  ++requests_;
  if (log_enabled(LogLevel::kDebug)) {
    log_line(LogLevel::kDebug, peer_ + " " + api_text(*header) + " correlation id " +
                                   std::to_string(header->correlation_id) + ", " +
                                   std::to_string(frame.size()) + " bytes");
  }
  const ApiEntry* api = find_api(header->api_key);
  if (api == nullptr) {
    log_warn(peer_ + " sent API key " + std::to_string(static_cast<int>(header->api_key)) +
             ", which kgroupsd does not serve; closing the connection");
    co_return FrameOutcome::kClose;
  }
  const bool in_range =
      header->api_version >= api->min_version && header->api_version <= api->max_version;
  if (!in_range && header->api_key != protocol::ApiKey::kApiVersions) {
    log_warn(peer_ + " sent " + api_text(*header) + ", outside the supported v" +
             std::to_string(api->min_version) + "-" + std::to_string(api->max_version) +
             "; closing the connection");
    co_return FrameOutcome::kClose;
  }

  std::vector<std::uint8_t> response = take_buffer();
  protocol::WireWriter writer(response);
  const std::size_t size_position = writer.reserve_int32();
  protocol::encode_response_header(writer, header->correlation_id);
  RequestContext ctx{.broker = broker_,
                     .header = *header,
                     .body = reader,
                     .response = writer,
                     .peer = peer_,
                     .failure = {}};
  const Reply reply = co_await api->handler(ctx);
  switch (reply) {
    case Reply::kSend:
      writer.patch_int32(size_position, static_cast<std::int32_t>(response.size() - 4));
      queue_response(std::move(response));
      co_return FrameOutcome::kContinue;
    case Reply::kNoResponse:
      recycle_buffer(std::move(response));
      co_return FrameOutcome::kContinue;
    case Reply::kClose:
      break;
  }
  log_warn(peer_ + " " + api_text(*header) + ": " + ctx.failure + "; closing the connection");
  co_return FrameOutcome::kClose;
}

std::vector<std::uint8_t> Connection::take_buffer() {
  if (spare_buffers_.empty()) {
    std::vector<std::uint8_t> buffer;
    buffer.reserve(4096);
    return buffer;
  }
  std::vector<std::uint8_t> buffer = std::move(spare_buffers_.back());
  spare_buffers_.pop_back();
  buffer.clear();
  return buffer;
}

void Connection::recycle_buffer(std::vector<std::uint8_t> buffer) {
  if (spare_buffers_.size() < kMaxSpareBuffers) spare_buffers_.push_back(std::move(buffer));
}

void Connection::queue_response(std::vector<std::uint8_t> response) {
  pending_.push_back(std::move(response));
  write_wakeup_.cancel();
}

asio::awaitable<void> Connection::write_loop() {
  std::vector<std::vector<std::uint8_t>> writing;
  std::vector<asio::const_buffer> buffers;
  for (;;) {
    if (pending_.empty()) {
      if (reading_done_) co_return;
      std::error_code ignored;  // operation_aborted: a response was queued or reading ended
      write_wakeup_.expires_at(asio::steady_timer::time_point::max());
      co_await write_wakeup_.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
      continue;
    }
    // Write everything queued so far with one gathered write.
    writing.clear();
    buffers.clear();
    while (!pending_.empty()) {
      writing.push_back(std::move(pending_.front()));
      pending_.pop_front();
    }
    for (const auto& response : writing) buffers.emplace_back(asio::buffer(response));
    std::error_code error;
    co_await asio::async_write(socket_, buffers, asio::redirect_error(asio::use_awaitable, error));
    for (auto& written : writing) recycle_buffer(std::move(written));
    if (error) {
      if (error != asio::error::operation_aborted && error != asio::error::broken_pipe &&
          error != asio::error::connection_reset) {
        log_warn(peer_ + " write failed: " + error.message());
      }
      // Stop reading too: nobody will receive the answers.
      std::error_code ignored;
      socket_.shutdown(asio::ip::tcp::socket::shutdown_receive, ignored);
      co_return;
    }
  }
}

}  // namespace kgroups::broker
