// SPDX-License-Identifier: Apache-2.0
#include "broker/response_queue.h"

#include <utility>

namespace kgroups::broker {

ResponseQueue::ResponseQueue(ByteBudget& budget, MemoryWaiters& waiters)
    : budget_(budget), waiters_(waiters) {}

ResponseQueue::~ResponseQueue() {
  budget_.give_back(static_cast<std::int64_t>(unsent_bytes_ + spare_bytes_));
}

std::vector<std::uint8_t> ResponseQueue::take_buffer() {
  if (spares_.empty()) {
    std::vector<std::uint8_t> buffer;
    buffer.reserve(kNewBufferBytes);
    return buffer;
  }
  std::vector<std::uint8_t> buffer = std::move(spares_.back());
  spares_.pop_back();
  spare_bytes_ -= buffer.capacity();
  give_back(buffer.capacity());
  buffer.clear();
  return buffer;
}

void ResponseQueue::recycle(std::vector<std::uint8_t> buffer) {
  const auto bytes = static_cast<std::int64_t>(buffer.capacity());
  if (spares_.size() >= kMaxSpareBuffers || buffer.capacity() > kMaxSpareBufferBytes ||
      budget_.available() < budget_.limit() / 2 + bytes) {
    return;
  }
  budget_.take(bytes);
  spare_bytes_ += buffer.capacity();
  spares_.push_back(std::move(buffer));
}

void ResponseQueue::push(std::vector<std::uint8_t> response) {
  budget_.take(static_cast<std::int64_t>(response.capacity()));
  unsent_bytes_ += response.capacity();
  unsent_.push_back(std::move(response));
}

void ResponseQueue::gather(std::vector<asio::const_buffer>& out, std::size_t max_buffers) const {
  for (std::size_t i = 0; i < unsent_.size() && i < max_buffers; ++i) {
    const std::size_t skip = i == 0 ? front_written_ : 0;
    out.emplace_back(unsent_[i].data() + skip, unsent_[i].size() - skip);
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
    std::vector<std::uint8_t> written = std::move(unsent_.front());
    unsent_.pop_front();
    unsent_bytes_ -= written.capacity();
    given_back += written.capacity();
    give_back(written.capacity());
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
