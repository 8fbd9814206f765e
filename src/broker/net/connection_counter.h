// SPDX-License-Identifier: Apache-2.0
//
// ConnectionCounter: the open connections, in total and per client address, against the
// caps --max-connections and --max-connections-per-ip. TcpServer asks admit() for each
// accepted connection and closes it at once when refused; an admitted one is counted until
// release().
// Not thread-safe: used on the broker's network thread.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

namespace kgroups::broker {

class ConnectionCounter {
 public:
  enum class Admission {
    kAdmitted,
    kTooManyConnections,  // max_total connections are open
    kTooManyFromAddress,  // max_per_address connections from this address are open
  };

  // Both caps at least 1.
  ConnectionCounter(std::int64_t max_total, std::int64_t max_per_address);

  // Counts a connection from `address` when both caps allow one more; otherwise counts
  // nothing and says which cap refused it.
  Admission admit(const std::string& address);
  // Uncounts a connection admit() counted.
  void release(const std::string& address);

  [[nodiscard]] std::int64_t total() const { return total_; }
  [[nodiscard]] std::int64_t from(const std::string& address) const;
  [[nodiscard]] std::int64_t max_total() const { return max_total_; }
  [[nodiscard]] std::int64_t max_per_address() const { return max_per_address_; }

 private:
  std::int64_t max_total_;
  std::int64_t max_per_address_;
  std::int64_t total_ = 0;                                    // connections counted
  std::unordered_map<std::string, std::int64_t> by_address_;  // > 0 for every key
};

}  // namespace kgroups::broker
