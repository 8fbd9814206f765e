// SPDX-License-Identifier: Apache-2.0
#include "broker/net/connection.h"

#include <algorithm>
#include <asio/buffer.hpp>
#include <asio/experimental/awaitable_operators.hpp>
#include <asio/post.hpp>
#include <asio/redirect_error.hpp>
#include <asio/this_coro.hpp>
#include <asio/use_awaitable.hpp>
#include <chrono>
#include <cstdint>
#include <limits>
#include <system_error>
#include <utility>

#include "broker/handlers/api_table.h"
#include "broker/runtime/logger.h"
#include "broker/runtime/memory_waiters.h"
#include "broker/runtime/periodic_task.h"
#include "protocol/request_header.h"
#include "protocol/wire_reader.h"
#include "protocol/wire_writer.h"

namespace kgroups::broker {
namespace {

using Expiry = ConnectionTimeouts::Expiry;
using Milliseconds = ConnectionTimeouts::Milliseconds;

// A response frame's size prefix is an int32.
constexpr std::size_t kMaxResponseBytes = std::numeric_limits<std::int32_t>::max();

std::string endpoint_text(const asio::ip::tcp::socket& socket) {
  std::error_code error;
  const auto endpoint = socket.remote_endpoint(error);
  if (error) return "unknown-peer";
  return endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
}

std::string api_text(const protocol::RequestHeader& header) {
  return std::string(protocol::api_name(header.api_key)) + " (key " +
         std::to_string(static_cast<int>(header.api_key)) + ") v" +
         std::to_string(header.api_version);
}

ConnectionTimeouts::Limits timeout_limits(const BrokerConfig& config) {
  return {.request = Milliseconds(config.request_timeout_ms),
          .send = Milliseconds(config.send_timeout_ms),
          .idle = Milliseconds(config.connections_max_idle_ms)};
}

ConnectionTimeouts::TimePoint steady_now() { return ConnectionTimeouts::Clock::now(); }

bool is_cancelled(const asio::cancellation_state& state) {
  return state.cancelled() != asio::cancellation_type::none;
}

}  // namespace

Connection::Connection(asio::ip::tcp::socket socket, Broker& broker, ConnectionListener listener)
    : transport_(std::move(socket), listener.tls),
      broker_(broker),
      listener_(std::move(listener)),
      peer_(endpoint_text(transport_.socket())),
      read_buffer_(broker.request_memory()),
      timeouts_(timeout_limits(broker.config()), steady_now()),
      responses_(broker.response_memory(), broker.response_memory_waiters()),
      write_wakeup_(transport_.socket().get_executor(), asio::steady_timer::time_point::max()),
      read_wakeup_(transport_.socket().get_executor(), asio::steady_timer::time_point::max()),
      watchdog_timer_(transport_.socket().get_executor(), asio::steady_timer::time_point::max()) {
  std::error_code ignored;
  transport_.socket().set_option(asio::ip::tcp::no_delay(true), ignored);
  broker_.metrics().connection_opened();
  if (uses_tls(listener_.protocol) || uses_sasl(listener_.protocol)) {
    authentication_deadline_ =
        steady_now() + Milliseconds(broker_.config().authentication_timeout_ms);
  }
}

void Connection::shut() {
  shut_requested_ = true;
  watchdog_timer_.cancel();
}

Connection::~Connection() {
  authentication_done();
  broker_.metrics().connection_closed();
}

void Connection::authentication_done() {
  authentication_deadline_ = ConnectionTimeouts::TimePoint::max();
  if (listener_.unauthenticated != nullptr) {
    --listener_.unauthenticated->count;
    listener_.unauthenticated.reset();
  }
}

asio::awaitable<void> Connection::run() {
  using asio::experimental::awaitable_operators::operator||;
  log_info(peer_ + " connected");
  try {
    // serve() ends once the reader and the writer have; the watchdog ends first when a
    // timeout closes the connection, which cancels them.
    co_await (serve() || watchdog());
  } catch (const std::exception& e) {
    log_warn(peer_ + " connection error: " + e.what());
  }
  // A timeout or an I/O error may leave responses queued: they are dropped, not flushed.
  transport_.close();
  release_memory();
  log_info(peer_ + " disconnected after " + std::to_string(requests_) + " requests");
}

asio::awaitable<void> Connection::serve() {
  using asio::experimental::awaitable_operators::operator&&;
  try {
    if (!co_await secure()) co_return;
    // The writer ends after the reader once every queued response is written (or the socket
    // fails); the reader ends on EOF, error or bad input.
    co_await (read_loop() && write_loop());
  } catch (const std::system_error& e) {
    // operation_aborted: cancelled by the watchdog inside a handler; it has said why.
    if (e.code() != asio::error::operation_aborted) {
      log_warn(peer_ + " connection error: " + e.what());
    }
  } catch (const std::exception& e) {
    log_warn(peer_ + " connection error: " + e.what());
  }
}

asio::awaitable<bool> Connection::secure() {
  if (transport_.tls()) {
    std::error_code error;
    co_await transport_.handshake(error);
    if (error) {
      if (error != asio::error::operation_aborted) {
        log_info(peer_ + " TLS handshake failed: " + error.message() + "; closing the connection");
      }
      co_return false;
    }
  }
  std::error_code error;
  const auto endpoint = transport_.socket().remote_endpoint(error);
  auth_.emplace(uses_sasl(listener_.protocol),
                error ? std::string() : endpoint.address().to_string(),
                transport_.peer_principal());
  if (transport_.tls() && log_enabled(LogLevel::kDebug)) {
    log_line(LogLevel::kDebug, peer_ + " TLS handshake done, principal " + auth_->principal());
  }
  if (auth_->authenticated()) authentication_done();
  co_return true;
}

std::size_t Connection::max_frame_bytes() const {
  const auto max_frame = static_cast<std::size_t>(broker_.config().max_frame_bytes);
  if (auth_ && auth_->authenticated()) return max_frame;
  return std::min(max_frame, static_cast<std::size_t>(broker_.config().sasl_max_receive_bytes));
}

asio::awaitable<void> Connection::read_loop() {
  std::size_t requests_this_turn = 0;  // handled since the reader last went through the queue
  ConnectionTimeouts::TimePoint turn_started = steady_now();
  for (;;) {
    if (responses_backlogged()) {
      // Kafka mutes such a channel: read nothing until the writer drains the responses or,
      // when the broker's response memory is full, until some is given back.
      timeouts_.not_waiting_for_frame();
      reader_paused_ = true;
      read_wakeup_.expires_at(asio::steady_timer::time_point::max());
      co_await broker_.response_memory_waiters().wait(read_wakeup_);
      reader_paused_ = false;
      if (is_cancelled(co_await asio::this_coro::cancellation_state)) break;
      continue;
    }
    const std::optional<std::int32_t> size = read_buffer_.size_prefix();
    const std::size_t max_frame = max_frame_bytes();
    if (size && (*size < 0 || static_cast<std::size_t>(*size) > max_frame)) {
      log_warn(peer_ + " sent a frame of " + std::to_string(*size) + " bytes, outside 0.." +
               std::to_string(max_frame) +
               (auth_->authenticated()
                    ? ""
                    : " (before authenticating: --sasl-server-max-receive-size)") +
               "; closing the connection");
      break;
    }
    const std::size_t frame_bytes = size ? 4 + static_cast<std::size_t>(*size) : 0;
    if (size && read_buffer_.buffered().size() >= frame_bytes) {
      timeouts_.not_waiting_for_frame();
      const FrameOutcome outcome =
          co_await handle_frame(read_buffer_.buffered().subspan(4, frame_bytes - 4));
      read_buffer_.consume(frame_bytes);
      if (read_buffer_.capacity() > FrameBuffer::kInitialBytes) {
        // A grown buffer is kept a moment for the client's next large frame (reallocating and
        // faulting in a large buffer per request would triple the cost of large produces),
        // unless other connections wait for request memory.
        const auto now = steady_now();
        if (frame_bytes > FrameBuffer::kInitialBytes) shrink_at_ = now + kKeepGrownBuffer;
        if (broker_.request_memory_waiters().waiting() > 0 || now >= shrink_at_) {
          shrink_read_buffer();
        }
      }
      if (outcome == FrameOutcome::kClose) break;
      const std::optional<std::int32_t> next = read_buffer_.size_prefix();
      const bool more_buffered =
          next && *next >= 0 &&
          read_buffer_.buffered().size() - 4 >= static_cast<std::size_t>(*next);
      if (more_buffered && (++requests_this_turn >= kMaxRequestsPerTurn ||
                            steady_now() - turn_started >= kMaxTurn)) {
        // This connection has had its turn: let other connections (and a signal) run first.
        // Yielding after every request would cost a write per response.
        co_await asio::post(transport_.socket().get_executor(), asio::use_awaitable);
        requests_this_turn = 0;
        turn_started = steady_now();
      }
      continue;
    }
    // More bytes are needed: of the frame begun (its request clock runs), or a new one.
    if (!read_buffer_.buffered().empty()) {
      timeouts_.waiting_for_frame(steady_now());
      rearm_watchdog();
    }
    if (read_buffer_.buffered().empty() && read_buffer_.capacity() > FrameBuffer::kInitialBytes) {
      if (broker_.request_memory_waiters().waiting() > 0 || steady_now() >= shrink_at_ ||
          shrink_at_ == ConnectionTimeouts::TimePoint::max() || transport_.may_hold_input()) {
        shrink_read_buffer();
      } else {
        // Wait for the next bytes without reading into the grown buffer, so that the
        // watchdog can shrink it at shrink_at_ meanwhile.
        awaiting_readable_ = true;
        rearm_watchdog();
        std::error_code error;
        co_await transport_.socket().async_wait(asio::ip::tcp::socket::wait_read,
                                                asio::redirect_error(asio::use_awaitable, error));
        awaiting_readable_ = false;
        if (error) {
          if (error != asio::error::operation_aborted) {
            log_warn(peer_ + " wait for input failed: " + error.message());
          }
          break;
        }
      }
    }
    if (!read_buffer_.make_room(frame_bytes)) {
      // The buffer is full and request memory cannot spare more: wait until a connection
      // gives some back (the request clock still runs).
      waiting_for_memory_ = true;
      read_wakeup_.expires_at(asio::steady_timer::time_point::max());
      co_await broker_.request_memory_waiters().wait(read_wakeup_);
      waiting_for_memory_ = false;
      if (is_cancelled(co_await asio::this_coro::cancellation_state)) break;
      continue;
    }
    const std::span<std::uint8_t> space = read_buffer_.free_space();
    std::error_code error;
    const std::size_t received =
        co_await transport_.read_some(asio::buffer(space.data(), space.size()), error);
    if (error) {
      if (!read_buffer_.buffered().empty() && error == asio::error::eof) {
        log_warn(peer_ + " closed the connection in the middle of a frame (" +
                 std::to_string(read_buffer_.buffered().size()) + " bytes unread)");
      } else if (error != asio::error::eof && error != asio::error::operation_aborted &&
                 error != asio::error::connection_reset) {
        log_warn(peer_ + " read failed: " + error.message());
      }
      break;
    }
    read_buffer_.commit(received);
    broker_.metrics().add_bytes_received(received);
    turn_started = steady_now();  // the read completed from the io_context's queue: a new turn
    requests_this_turn = 0;
    timeouts_.received(turn_started);
  }
  reading_done_ = true;
  write_wakeup_.cancel();
}

asio::awaitable<Connection::FrameOutcome> Connection::handle_frame(
    std::span<const std::uint8_t> frame) {
  if (auth_->stage() == ConnectionAuth::Stage::kAwaitingRawToken) {
    co_return co_await handle_raw_token(frame);
  }
  protocol::WireReader reader(frame);
  protocol::Result<protocol::RequestHeader> header = protocol::decode_request_header(reader);
  if (!header) {
    log_warn(peer_ + " sent a malformed request header (" + std::to_string(frame.size()) +
             "-byte frame); closing the connection");
    co_return FrameOutcome::kClose;
  }
  ++requests_;
  broker_.metrics().count_request(header->api_key);
  if (log_enabled(LogLevel::kDebug)) {
    log_line(LogLevel::kDebug,
             peer_ + " " + api_text(*header) + " correlation id " +
                 std::to_string(header->correlation_id) + ", client id " +
                 (header->client_id ? quote(*header->client_id) : std::string("null")) + ", " +
                 std::to_string(frame.size()) + " bytes");
  }
  const ApiEntry* api = find_api(header->api_key);
  if (api == nullptr) {
    log_warn(peer_ + " sent API key " + std::to_string(static_cast<int>(header->api_key)) +
             ", which kgroupsd does not serve; closing the connection");
    co_return FrameOutcome::kClose;
  }
  if (!admitted(*header)) co_return FrameOutcome::kClose;
  const bool in_range =
      header->api_version >= api->min_version && header->api_version <= api->max_version;
  if (!in_range && header->api_key != protocol::ApiKey::kApiVersions) {
    log_warn(peer_ + " sent " + api_text(*header) + ", outside the supported v" +
             std::to_string(api->min_version) + "-" + std::to_string(api->max_version) +
             "; closing the connection");
    co_return FrameOutcome::kClose;
  }

  ResponseBuffer response = responses_.take_buffer();
  protocol::WireWriter writer(response.bytes);
  writer.splice_into(&response.spliced);  // only Fetch's records are spliceable
  const std::size_t size_position = writer.reserve_int32();
  protocol::encode_response_header(
      writer, header->correlation_id,
      in_range && protocol::is_flexible_response(header->api_key, header->api_version));
  RequestContext ctx{.broker = broker_,
                     .header = *header,
                     .body = reader,
                     .response = writer,
                     .peer = peer_,
                     .failure = {},
                     .pins = &response.pins,
                     .node_id = listener_.node_id,
                     .listener = listener_.index,
                     .auth = &*auth_};
  timeouts_.handler_started();
  if (!broker_.faults().empty()) {
    if (co_await apply_connection_fault(*header) == FrameOutcome::kClose) {
      co_return FrameOutcome::kClose;
    }
  }
  const Reply reply = co_await api->handler(ctx);
  if (listener_.unauthenticated != nullptr && auth_->authenticated()) authentication_done();
  timeouts_.handler_finished(steady_now());
  rearm_watchdog();
  response.spliced_bytes = writer.spliced_bytes();
  const bool encodable = writer.ok() && response.size() - 4 <= kMaxResponseBytes;
  if (reply == Reply::kSend && !encodable) {
    // A length did not fit its field (or the frame its int32 size): the bytes are not a
    // valid response, and sending them would desynchronise the client.
    ctx.failure = "its " + std::to_string(response.size()) +
                  "-byte response has a length too large for its field and cannot be sent";
  }
  switch (encodable ? reply : Reply::kClose) {
    case Reply::kSend:
      writer.patch_int32(size_position, static_cast<std::int32_t>(response.size() - 4));
      queue_response(std::move(response));
      co_return FrameOutcome::kContinue;
    case Reply::kSendAndClose:
      // The writer sends what is queued once the reader stops.
      writer.patch_int32(size_position, static_cast<std::int32_t>(response.size() - 4));
      queue_response(std::move(response));
      co_return FrameOutcome::kClose;
    case Reply::kNoResponse:
      responses_.recycle(std::move(response));
      co_return FrameOutcome::kContinue;
    case Reply::kClose:
      break;
  }
  if (!closing_) {
    log_warn(peer_ + " " + api_text(*header) + ": " + ctx.failure + "; closing the connection");
  }
  co_return FrameOutcome::kClose;
}

bool Connection::admitted(const protocol::RequestHeader& header) {
  using protocol::ApiKey;
  const ApiKey key = header.api_key;
  const bool sasl_request = key == ApiKey::kSaslHandshake || key == ApiKey::kSaslAuthenticate;
  if (!auth_->authenticated()) {
    const bool allowed = key == ApiKey::kApiVersions || key == ApiKey::kSaslHandshake ||
                         (key == ApiKey::kSaslAuthenticate &&
                          auth_->stage() == ConnectionAuth::Stage::kAwaitingAuthenticate);
    if (!allowed) {
      log_warn(peer_ + " sent " + api_text(header) +
               " before authenticating (a SASL listener serves only ApiVersions, SaslHandshake "
               "and SaslAuthenticate until then); closing the connection");
    }
    return allowed;
  }
  // Only a session with a lifetime reads the clock (most connections have none).
  if (!sasl_request && auth_->session_expiry_ms() && auth_->session_expired(wall_clock_ms())) {
    log_info(peer_ + " sent " + api_text(header) + " after its SASL session of " +
             auth_->principal() +
             " expired without re-authentication (KIP-368); closing the connection");
    return false;
  }
  return true;
}

asio::awaitable<Connection::FrameOutcome> Connection::handle_raw_token(
    std::span<const std::uint8_t> frame) {
  ++requests_;
  const std::string_view token(reinterpret_cast<const char*>(frame.data()), frame.size());
  const SaslReply reply = auth_->authenticate(token, wall_clock_ms());
  if (reply.outcome == SaslReply::Outcome::kFailed) {
    const auto delay =
        broker_.access().failure_backoff().failed(auth_->host(), AuthFailureBackoff::Clock::now());
    log_info(peer_ + " failed " + std::string(auth_->mechanism()) +
             " authentication (SaslHandshake v0): " + reply.log_reason +
             "; closing the connection in " + std::to_string(delay.count()) + " ms");
    asio::steady_timer backoff(transport_.socket().get_executor(), delay);
    std::error_code ignored;
    co_await backoff.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
    co_return FrameOutcome::kClose;
  }
  // The answer is a raw token too: its size, then its bytes (empty once PLAIN succeeded).
  ResponseBuffer response = responses_.take_buffer();
  protocol::WireWriter writer(response.bytes);
  writer.write_int32(static_cast<std::int32_t>(reply.auth_bytes.size()));
  writer.write_raw(std::span(reinterpret_cast<const std::uint8_t*>(reply.auth_bytes.data()),
                             reply.auth_bytes.size()));
  queue_response(std::move(response));
  if (auth_->authenticated()) {
    log_info(peer_ + " authenticated as " + quote(auth_->principal()) + " with " +
             std::string(auth_->mechanism()) + " (SaslHandshake v0)");
    authentication_done();
  }
  co_return FrameOutcome::kContinue;
}

asio::awaitable<Connection::FrameOutcome> Connection::apply_connection_fault(
    const protocol::RequestHeader& header) {
  const auto fault = broker_.faults().take_connection_fault(header.api_key);
  if (!fault) co_return FrameOutcome::kContinue;
  if (fault->action == FaultAction::kClose) {
    log_info(peer_ + " " + api_text(header) +
             ": an injected fault (POST /v1/faults) closes the connection");
    co_return FrameOutcome::kClose;
  }
  // This connection's later requests wait behind this one, so responses stay in order; other
  // connections go on.
  asio::steady_timer delay(transport_.socket().get_executor(),
                           std::chrono::milliseconds(fault->latency_ms));
  std::error_code ignored;  // operation_aborted: the connection is closing
  co_await delay.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
  if (is_cancelled(co_await asio::this_coro::cancellation_state)) co_return FrameOutcome::kClose;
  co_return FrameOutcome::kContinue;
}

bool Connection::responses_backlogged() const {
  const std::size_t unsent = responses_.unsent_bytes();
  if (unsent == 0) return false;
  return unsent > static_cast<std::uint64_t>(broker_.config().connection_max_unsent_bytes) ||
         broker_.response_memory().available() == 0;
}

void Connection::queue_response(ResponseBuffer response) {
  responses_.push(std::move(response));
  timeouts_.response_queued(steady_now());
  rearm_watchdog();
  write_wakeup_.cancel();
}

asio::awaitable<void> Connection::write_loop() {
  // Cancellation (the watchdog closing) ends this loop through the error codes below.
  co_await asio::this_coro::throw_if_cancelled(false);
  std::vector<asio::const_buffer> buffers;
  for (;;) {
    if (is_cancelled(co_await asio::this_coro::cancellation_state)) co_return;
    if (responses_.empty()) {
      if (reading_done_) co_return;
      std::error_code ignored;  // operation_aborted: a response was queued or reading ended
      write_wakeup_.expires_at(asio::steady_timer::time_point::max());
      co_await write_wakeup_.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
      continue;
    }
    // Write what is queued with one gathered write; the socket may take only part of it.
    buffers.clear();
    responses_.gather(buffers, kMaxGatheredBuffers);
    std::error_code error;
    const std::size_t written = co_await transport_.write_some(buffers, error);
    if (error) {
      if (error != asio::error::operation_aborted && error != asio::error::broken_pipe &&
          error != asio::error::connection_reset) {
        log_warn(peer_ + " write failed: " + error.message());
      }
      // Stop reading too: nobody will receive the answers.
      transport_.shutdown_receive();
      co_return;
    }
    broker_.metrics().add_bytes_sent(written);
    const bool whole_responses_written = responses_.consume(written) > 0;
    timeouts_.write_progress(steady_now(), responses_.empty());
    if (whole_responses_written && reader_paused_ && !responses_backlogged()) {
      read_wakeup_.cancel();
    }
  }
}

asio::awaitable<void> Connection::watchdog() {
  co_await asio::this_coro::throw_if_cancelled(false);
  for (;;) {
    if (shut_requested_) {
      closing_ = true;
      log_info(peer_ + ": closing, broker " + std::to_string(listener_.node_id) + " stopped");
      transport_.cancel();
      co_return;
    }
    const auto now = steady_now();
    if (now >= authentication_deadline_) {
      closing_ = true;
      log_info(peer_ + " did not " +
               (auth_ ? "authenticate" : std::string("finish its TLS handshake")) + " within " +
               std::to_string(broker_.config().authentication_timeout_ms) +
               " ms (--authentication-timeout-ms); closing the connection");
      transport_.cancel();
      co_return;
    }
    const Expiry expiry = timeouts_.expired(now);
    if (expiry != Expiry::kNone) {
      closing_ = true;
      log_timeout(expiry, now);
      transport_.cancel();
      co_return;
    }
    if (awaiting_readable_ && now >= shrink_at_) shrink_read_buffer();
    watchdog_armed_at_ = next_wakeup();
    watchdog_timer_.expires_at(watchdog_armed_at_);
    std::error_code ignored;  // operation_aborted: rearm_watchdog() or the connection ended
    co_await watchdog_timer_.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
    if (is_cancelled(co_await asio::this_coro::cancellation_state)) co_return;
  }
}

ConnectionTimeouts::TimePoint Connection::next_wakeup() const {
  const auto deadline = std::min(timeouts_.next_deadline(), authentication_deadline_);
  return awaiting_readable_ ? std::min(deadline, shrink_at_) : deadline;
}

void Connection::shrink_read_buffer() {
  shrink_at_ = ConnectionTimeouts::TimePoint::max();
  if (read_buffer_.shrink() > 0 && broker_.request_memory_waiters().waiting() > 0) {
    broker_.request_memory_waiters().wake_all();
  }
}

void Connection::rearm_watchdog() {
  const auto next = next_wakeup();
  if (next >= watchdog_armed_at_) return;
  watchdog_armed_at_ = next;
  watchdog_timer_.expires_at(next);  // cancels the watchdog's wait; it re-reads the clocks
}

void Connection::log_timeout(Expiry expiry, ConnectionTimeouts::TimePoint now) const {
  const auto& limits = timeouts_.limits();
  const auto waited_ms = [&](ConnectionTimeouts::TimePoint since) {
    return std::to_string(std::chrono::duration_cast<Milliseconds>(now - since).count());
  };
  switch (expiry) {
    case Expiry::kRequest: {
      const std::optional<std::int32_t> size = read_buffer_.size_prefix();
      const std::string frame =
          size ? "a " + std::to_string(4 + static_cast<std::int64_t>(*size)) + "-byte request"
               : "a request";
      if (waiting_for_memory_) {
        log_warn(peer_ + " waited " + waited_ms(timeouts_.frame_waiting_since()) +
                 " ms for request memory (--queued-max-request-bytes) to receive " + frame +
                 ", beyond --request-timeout-ms " + std::to_string(limits.request.count()) +
                 "; closing the connection");
      } else {
        log_warn(peer_ + " sent " + std::to_string(read_buffer_.buffered().size()) + " bytes of " +
                 frame + " and not the rest within " + std::to_string(limits.request.count()) +
                 " ms (--request-timeout-ms); closing the connection");
      }
      return;
    }
    case Expiry::kSend:
      log_warn(peer_ + " took none of its " + std::to_string(responses_.unsent_bytes()) +
               " bytes of unsent responses for " + waited_ms(timeouts_.send_progress_at()) +
               " ms (--send-timeout-ms " + std::to_string(limits.send.count()) +
               "); closing the connection");
      return;
    case Expiry::kIdle:
      log_info(peer_ + " was idle for " + std::to_string(limits.idle.count()) +
               " ms (--connections-max-idle-ms); closing the connection");
      return;
    case Expiry::kNone:
      return;
  }
}

void Connection::release_memory() {
  if (read_buffer_.release() > 0 && broker_.request_memory_waiters().waiting() > 0) {
    broker_.request_memory_waiters().wake_all();
  }
  responses_.release();
}

}  // namespace kgroups::broker
