// SPDX-License-Identifier: Apache-2.0
#include "broker/net/response_queue.h"

#include <utility>

namespace kgroups::broker {

ResponseQueue::ResponseQueue(ByteBudget& budget, MemoryWaiters& waiters)
    : budget_(budget), waiters_(waiters) {}

ResponseQueue::~ResponseQueue() {
  budget_.give_back(static_cast<std::int64_t>(unsent_bytes_ + spare_bytes_));
}

ResponseBuffer ResponseQueue::take_buffer() {
  if (spares_.empty()) {
    ResponseBuffer buffer;
    buffer.bytes.reserve(kNewBufferBytes);
    return buffer;
  }
  ResponseBuffer buffer = std::move(spares_.back());
  spares_.pop_back();
  const std::size_t bytes = buffer.memory_bytes();
  spare_bytes_ -= bytes;
  give_back(bytes);
  return buffer;
}

void ResponseQueue::recycle(ResponseBuffer buffer) {
  buffer.clear();
  const std::size_t memory = buffer.memory_bytes();
  const auto bytes = static_cast<std::int64_t>(memory);
  if (spares_.size() >= kMaxSpareBuffers || buffer.bytes.capacity() > kMaxSpareBufferBytes ||
      budget_.available() < budget_.limit() / 2 + bytes) {
    return;
  }
  budget_.take(bytes);
  spare_bytes_ += memory;
  spares_.push_back(std::move(buffer));
}

void ResponseQueue::push(ResponseBuffer response) {
  const std::size_t memory = response.memory_bytes();
  budget_.take(static_cast<std::int64_t>(memory));
  unsent_bytes_ += memory;
  unsent_.push_back(std::move(response));
}

bool ResponseQueue::gather_one(const ResponseBuffer& response, std::size_t skip,
                               std::vector<asio::const_buffer>& out, std::size_t max_buffers) {
  // Pieces in frame order: bytes up to each spliced range's position, the range, then the
  // rest of the bytes. `skip` counts frame bytes already written.
  const auto add = [&](const std::uint8_t* data, std::size_t size) {
    if (size <= skip) {
      skip -= size;
      return true;
    }
    if (out.size() >= max_buffers) return false;
    out.emplace_back(data + skip, size - skip);
    skip = 0;
    return true;
  };
  std::size_t position = 0;
  for (const protocol::SplicedRange& range : response.spliced) {
    if (!add(response.bytes.data() + position, range.position - position)) return false;
    if (!add(range.bytes.data(), range.bytes.size())) return false;
    position = range.position;
  }
  return add(response.bytes.data() + position, response.bytes.size() - position) &&
         out.size() < max_buffers;
}

void ResponseQueue::gather(std::vector<asio::const_buffer>& out, std::size_t max_buffers) const {
  for (std::size_t i = 0; i < unsent_.size(); ++i) {
    if (!gather_one(unsent_[i], i == 0 ? front_written_ : 0, out, max_buffers)) return;
  }
}

std::size_t ResponseQueue::consume(std::size_t bytes) {
  std::size_t given_back = 0;
  while (bytes > 0 && !unsent_.empty()) {
    const std::size_t rest = unsent_.front().size() - front_written_;
    if (bytes < rest) {
      front_written_ += bytes;
      break;
    }
    bytes -= rest;
    front_written_ = 0;
    ResponseBuffer written = std::move(unsent_.front());
    unsent_.pop_front();
    const std::size_t memory = written.memory_bytes();
    unsent_bytes_ -= memory;
    given_back += memory;
    written.clear();  // the socket has the bytes: the segments may go
    give_back(memory);
    recycle(std::move(written));
  }
  return given_back;
}

void ResponseQueue::release() {
  const std::size_t bytes = unsent_bytes_ + spare_bytes_;
  unsent_.clear();
  spares_.clear();
  unsent_bytes_ = spare_bytes_ = front_written_ = 0;
  give_back(bytes);
}

void ResponseQueue::give_back(std::size_t bytes) {
  if (bytes == 0) return;
  budget_.give_back(static_cast<std::int64_t>(bytes));
  // wake_all() empties the list, so giving back several buffers in a row wakes them once.
  if (waiters_.waiting() > 0 && budget_.available() > 0) waiters_.wake_all();
}

}  // namespace kgroups::broker
