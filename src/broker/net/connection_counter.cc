// SPDX-License-Identifier: Apache-2.0
#include "broker/net/connection_counter.h"

namespace kgroups::broker {

ConnectionCounter::ConnectionCounter(std::int64_t max_total, std::int64_t max_per_address)
    : max_total_(max_total), max_per_address_(max_per_address) {}

ConnectionCounter::Admission ConnectionCounter::admit(const std::string& address) {
  if (total_ >= max_total_) return Admission::kTooManyConnections;
  if (from(address) >= max_per_address_) return Admission::kTooManyFromAddress;
  ++total_;
  ++by_address_[address];
  return Admission::kAdmitted;
}

void ConnectionCounter::release(const std::string& address) {
  const auto found = by_address_.find(address);
  if (found == by_address_.end()) return;
  --total_;
  if (--found->second == 0) by_address_.erase(found);
}

std::int64_t ConnectionCounter::from(const std::string& address) const {
  const auto found = by_address_.find(address);
  return found == by_address_.end() ? 0 : found->second;
}

}  // namespace kgroups::broker
