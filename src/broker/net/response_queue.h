// SPDX-License-Identifier: Apache-2.0
//
// ResponseQueue: one connection's responses that are not fully written yet, in order, with
// their memory counted in a ByteBudget (Broker::response_memory()) from push() until the
// socket has taken them or they are dropped; plus a few written buffers kept for reuse,
// counted too, while the budget is less than half used. A response counts its buffer's
// capacity, the memory it holds. Whenever bytes go back to the budget and it has room again,
// the connections waiting for it are woken (MemoryWaiters). A response may splice stored
// record batches in (ResponseBuffer): gather() then lists them as buffers of their own between
// the encoded pieces, and the segments they lie in stay pinned until the response is written
// whole or dropped; their bytes count too, so the budget bounds what queued responses hold
// exactly as when the batches were copied into them.
// Not thread-safe: one connection's, on the broker's network thread.
#pragma once

#include <asio/buffer.hpp>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "broker/net/response_buffer.h"
#include "broker/runtime/byte_budget.h"
#include "broker/runtime/memory_waiters.h"

namespace kgroups::broker {

class ResponseQueue {
 public:
  static constexpr std::size_t kMaxSpareBuffers = 4;
  // A Fetch response is often megabytes: reusing its buffer saves faulting in fresh pages
  // for every response (0.1 against 0.5 s of broker CPU per million consumed messages).
  static constexpr std::size_t kMaxSpareBufferBytes = std::size_t{16} << 20;  // capacity
  static constexpr std::size_t kNewBufferBytes = 4096;  // capacity of a new buffer

  // `budget` and `waiters` must outlive the queue.
  ResponseQueue(ByteBudget& budget, MemoryWaiters& waiters);
  // Gives back what is still counted, without waking anyone (the io_context is going away).
  ~ResponseQueue();

  ResponseQueue(const ResponseQueue&) = delete;
  ResponseQueue& operator=(const ResponseQueue&) = delete;

  // An empty buffer to build a response in: a spare one, or a new one of kNewBufferBytes.
  // It is not counted while it is being built.
  ResponseBuffer take_buffer();
  // Keeps `buffer` (emptied, its pins let go) as a spare when its bytes' capacity is at most
  // kMaxSpareBufferBytes, fewer than kMaxSpareBuffers are kept and the budget is less than
  // half used (so that spares never hold others back); else frees it.
  void recycle(ResponseBuffer buffer);

  // Queues `response` (non-empty) and takes its memory_bytes() from the budget, even beyond
  // the limit (it is built already).
  void push(ResponseBuffer response);
  void push(std::vector<std::uint8_t> response) {
    ResponseBuffer buffer;
    buffer.bytes = std::move(response);
    push(std::move(buffer));
  }
  // Appends views of the unsent bytes, at most `max_buffers` of them, to `out`: the encoded
  // pieces and the spliced ranges in frame order. They stay valid until consume() or
  // release().
  void gather(std::vector<asio::const_buffer>& out, std::size_t max_buffers) const;
  // Drops the first `bytes` unsent bytes (the socket took them); every response written
  // whole goes back to the budget. Returns the bytes of responses given back.
  std::size_t consume(std::size_t bytes);
  // Drops everything and gives it all back (the connection is closing).
  void release();

  [[nodiscard]] bool empty() const { return unsent_.empty(); }
  // The memory of the queued responses: what they count in the budget.
  [[nodiscard]] std::size_t unsent_bytes() const { return unsent_bytes_; }
  [[nodiscard]] std::size_t spare_bytes() const { return spare_bytes_; }

 private:
  void give_back(std::size_t bytes);

  ByteBudget& budget_;
  MemoryWaiters& waiters_;
  // Appends the unsent pieces of `response` from frame byte `skip` on; false once `out` holds
  // `max_buffers`.
  static bool gather_one(const ResponseBuffer& response, std::size_t skip,
                         std::vector<asio::const_buffer>& out, std::size_t max_buffers);

  std::deque<ResponseBuffer> unsent_;   // in order; the front may be partly written
  std::size_t front_written_ = 0;       // frame bytes of unsent_.front() already written
  std::size_t unsent_bytes_ = 0;        // memory_bytes() of unsent_, taken from budget_
  std::vector<ResponseBuffer> spares_;  // written buffers kept for reuse
  std::size_t spare_bytes_ = 0;         // their memory_bytes(), taken from budget_
};

}  // namespace kgroups::broker
