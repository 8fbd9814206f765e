// SPDX-License-Identifier: Apache-2.0
//
// Connection: one client's TCP connection. It reads size-prefixed request frames (int32 size,
// then the request), dispatches each through the API table, and writes the responses in
// request order: requests are handled one at a time, in arrival order, and their responses
// queue for a separate writer coroutine, so pipelined requests are read and answered without
// waiting for each write. A long-polling Fetch holds up only its own connection. After a few
// requests already buffered (kMaxRequestsPerTurn, or kMaxTurn of work) the reader yields to
// the io_context, so a client pipelining thousands of requests neither starves the other
// connections nor delays shutdown.
//
// What a client can make it hold is bounded (limit_table.cc):
// - requests: the receive buffer is a FrameBuffer on Broker::request_memory(); a connection
//   whose frame needs more than the budget can spare waits (is not read) until another gives
//   bytes back. A buffer grown for a large frame shrinks back after it, at once when others
//   wait for memory, else once no large frame has come for kKeepGrownBuffer (regrowing it
//   for every request would triple the cost of large produces);
// - responses (which send Fetch's stored batches straight from the log's segments, pinned
//   until written: ResponseBuffer): queued responses are a ResponseQueue on
//   Broker::response_memory(); no further request is read or handled while their bytes exceed
//   --connection-max-unsent-bytes, or while any are unsent and the budget is full (a connection
//   with nothing unsent is always served);
// - time: a watchdog closes the connection when a started frame is not whole within
//   --request-timeout-ms, when queued responses make no progress for --send-timeout-ms, and
//   when nothing is in progress for --connections-max-idle-ms (ConnectionTimeouts), with one
//   log line saying why.
//
// Security (docs/SECURITY.md): on an SSL or SASL_SSL listener the connection first completes
// a TLS handshake (Transport); on a SASL listener it serves nothing but ApiVersions,
// SaslHandshake and SaslAuthenticate (or, after a SaslHandshake v0, raw tokens) until the
// client authenticated (ConnectionAuth), and reads frames of at most
// --sasl-max-receive-bytes meanwhile. Both must end within --authentication-timeout-ms; until
// then the connection counts against --max-unauthenticated-connections. Once a session's
// lifetime (KIP-368) is over, any request but re-authentication closes the connection.
//
// Injected faults (Broker::faults()): a latency fault delays a request before its handler runs
// (and so every later request of the connection, keeping the responses in order); a close
// fault closes the connection instead of handling the request. Responses already queued are
// still sent.
//
// Bad input never affects other connections: a frame whose size prefix is negative or above
// the broker's max_frame_bytes, a malformed header, an unknown API key, an unsupported
// version or a malformed body makes this connection log one line and close. A truncated frame
// (the peer closes mid-frame) just ends the connection. Client-supplied text reaches the log
// only quoted (logger.h).
// Not thread-safe: runs on the broker's network thread.
#pragma once

#include <asio/awaitable.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/ssl/context.hpp>
#include <asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "broker/net/connection_timeouts.h"
#include "broker/net/frame_buffer.h"
#include "broker/net/response_queue.h"
#include "broker/net/transport.h"
#include "broker/node/broker.h"
#include "broker/security/connection_auth.h"
#include "protocol/request_header.h"

namespace kgroups::broker {

// Connections still in their TLS handshake or SASL exchange, shared by a process's listeners.
struct UnauthenticatedConnections {
  std::size_t count = 0;
  std::size_t max = 0;
};

// The listener a connection came in on.
struct ConnectionListener {
  std::int32_t node_id = 0;  // the broker of the cluster (--brokers)
  std::size_t index = 0;     // which of its listeners (config().listeners' index)
  SecurityProtocol protocol = SecurityProtocol::kPlaintext;
  asio::ssl::context* tls = nullptr;  // SSL and SASL_SSL: the TLS settings; outlives the server
  std::shared_ptr<UnauthenticatedConnections> unauthenticated;  // null: not counted
};

class Connection {
 public:
  // `broker` must outlive the connection. When the io_context is destroyed with the
  // connection suspended, the connection gives its memory back without waking anyone.
  Connection(asio::ip::tcp::socket socket, Broker& broker, ConnectionListener listener = {});
  ~Connection();

  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Serves the connection until the peer closes it, an I/O error happens, bad input or a
  // timeout closes it, or the coroutine is cancelled; then closes the socket and gives its
  // memory back, waking connections that wait for it. Never throws.
  asio::awaitable<void> run();

  [[nodiscard]] const std::string& peer() const { return peer_; }

  // Closes the connection soon (its broker stopped): run() ends as it does on a timeout,
  // dropping queued responses and cancelling a parked request.
  void shut();

 private:
  enum class FrameOutcome { kContinue, kClose };

  // The reader and the writer; ends when both have. Never throws.
  asio::awaitable<void> serve();
  asio::awaitable<void> read_loop();
  asio::awaitable<void> write_loop();
  // Returns when a timeout expires, after logging it (or when cancelled).
  asio::awaitable<void> watchdog();
  // The TLS handshake, when the listener has TLS; false when it failed (it says why).
  asio::awaitable<bool> secure();
  // Handles one request frame (without its size prefix) and queues its response.
  asio::awaitable<FrameOutcome> handle_frame(std::span<const std::uint8_t> frame);
  // After a SaslHandshake v0: one raw SASL token, answered with a raw size-prefixed token.
  asio::awaitable<FrameOutcome> handle_raw_token(std::span<const std::uint8_t> frame);
  // Whether the request may be served in the connection's authentication state; if not, logs
  // why the connection closes.
  bool admitted(const protocol::RequestHeader& header);
  // The client completed authentication: it no longer counts as unauthenticated.
  void authentication_done();
  // The largest frame the reader accepts now (smaller before SASL authentication).
  [[nodiscard]] std::size_t max_frame_bytes() const;
  // Applies the first armed latency or close fault for the request (POST /v1/faults): waits
  // out its latency, or answers kClose to close the connection without handling it.
  asio::awaitable<FrameOutcome> apply_connection_fault(const protocol::RequestHeader& header);

  // Whether unsent responses keep the reader from handling the next request.
  [[nodiscard]] bool responses_backlogged() const;
  void queue_response(ResponseBuffer response);
  // Gives back all memory and wakes the connections waiting for it.
  void release_memory();
  // Shrinks a grown receive buffer back (FrameBuffer::shrink()), waking connections that
  // wait for request memory.
  void shrink_read_buffer();
  // When the watchdog must next look: the first deadline of timeouts_, or shrink_at_ while
  // the reader waits for input with a grown, empty buffer.
  [[nodiscard]] ConnectionTimeouts::TimePoint next_wakeup() const;
  // Moves the watchdog's wake-up earlier when a clock started that runs out before it.
  void rearm_watchdog();
  // The one line saying why `expiry` closes the connection.
  void log_timeout(ConnectionTimeouts::Expiry expiry, ConnectionTimeouts::TimePoint now) const;

  // Buffers in one gathered write (asio passes at most 64 to writev): encoded pieces and
  // spliced record batches.
  static constexpr std::size_t kMaxGatheredBuffers = 64;
  // The reader yields to the io_context after this many requests already buffered, or after
  // handling them for this long, whichever comes first.
  static constexpr std::size_t kMaxRequestsPerTurn = 64;
  static constexpr std::chrono::microseconds kMaxTurn{1000};
  // How long a receive buffer grown for a large frame is kept for the next one.
  static constexpr std::chrono::milliseconds kKeepGrownBuffer{100};

  Transport transport_;
  Broker& broker_;
  ConnectionListener listener_;
  std::optional<ConnectionAuth> auth_;  // made once the TLS handshake tells the certificate
  // Until when the TLS handshake and the SASL exchange may last (max: authenticated).
  ConnectionTimeouts::TimePoint authentication_deadline_ = ConnectionTimeouts::TimePoint::max();
  std::string peer_;  // "host:port" of the client
  FrameBuffer read_buffer_;
  ConnectionTimeouts timeouts_;
  ResponseQueue responses_;            // on Broker::response_memory()
  asio::steady_timer write_wakeup_;    // cancelled when responses_ gains a response
  asio::steady_timer read_wakeup_;     // the reader waits on it for memory or for the writer
  asio::steady_timer watchdog_timer_;  // wakes the watchdog at the next deadline
  ConnectionTimeouts::TimePoint watchdog_armed_at_ = ConnectionTimeouts::TimePoint::max();
  // Until when a grown receive buffer may be kept (max: not grown, or no large frame yet).
  ConnectionTimeouts::TimePoint shrink_at_ = ConnectionTimeouts::TimePoint::max();
  bool awaiting_readable_ = false;   // the reader waits for input with a grown, empty buffer
  bool reader_paused_ = false;       // the reader waits for unsent responses to drain
  bool waiting_for_memory_ = false;  // the reader waits for request memory
  bool reading_done_ = false;        // the read loop ended; the writer flushes then ends
  bool closing_ = false;             // the watchdog is closing the connection
  bool shut_requested_ = false;      // shut(): the watchdog closes the connection
  std::uint64_t requests_ = 0;       // requests handled, for the closing log line
};

}  // namespace kgroups::broker
