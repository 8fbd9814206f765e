// SPDX-License-Identifier: Apache-2.0
//
// Connection: one client's TCP connection. It reads size-prefixed request frames (int32 size,
// then the request), dispatches each through the API table, and writes the responses in
// request order: requests are handled one at a time, in arrival order, and their responses
// queue for a separate writer coroutine, so pipelined requests are read and answered without
// waiting for each write. A long-polling Fetch holds up only its own connection.
//
// Bad input never affects other connections: a frame whose size prefix is negative or above
// the broker's max_frame_bytes, a malformed header, an unknown API key, an unsupported
// version or a malformed body makes this connection log one line and close. A truncated frame
// (the peer closes mid-frame) just ends the connection.
// Not thread-safe: runs on the broker's network thread.
#pragma once

#include <asio/awaitable.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/steady_timer.hpp>
#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <vector>

#include "broker/broker.h"

namespace kgroups::broker {

class Connection {
 public:
  // `broker` must outlive the connection.
  Connection(asio::ip::tcp::socket socket, Broker& broker);

  // Serves the connection until the peer closes it, an I/O error happens, bad input closes
  // it, or the coroutine is cancelled. Never throws.
  asio::awaitable<void> run();

  [[nodiscard]] const std::string& peer() const { return peer_; }

 private:
  enum class FrameOutcome { kContinue, kClose };

  asio::awaitable<void> read_loop();
  asio::awaitable<void> write_loop();
  // Handles one request frame (without its size prefix) and queues its response.
  asio::awaitable<FrameOutcome> handle_frame(std::span<const std::uint8_t> frame);
  void queue_response(std::vector<std::uint8_t> response);
  // An empty buffer for a response: a written one kept for reuse (its pages are already
  // mapped, and it is usually big enough) or a new one.
  std::vector<std::uint8_t> take_buffer();
  void recycle_buffer(std::vector<std::uint8_t> buffer);

  static constexpr std::size_t kMaxSpareBuffers = 4;  // bounds the memory a connection keeps

  asio::ip::tcp::socket socket_;
  Broker& broker_;
  std::string peer_;                                      // "host:port" of the client
  std::vector<std::uint8_t> read_buffer_;                 // bytes received, from read_begin_
  std::size_t read_begin_ = 0;                            // first unconsumed byte
  std::size_t read_end_ = 0;                              // one past the last received byte
  std::deque<std::vector<std::uint8_t>> pending_;         // responses not yet handed to the socket
  std::vector<std::vector<std::uint8_t>> spare_buffers_;  // written responses, for reuse
  asio::steady_timer write_wakeup_;  // cancelled when pending_ gains a response
  bool reading_done_ = false;        // the read loop ended; the writer flushes then ends
  std::uint64_t requests_ = 0;       // requests handled, for the closing log line
};

}  // namespace kgroups::broker
