// SPDX-License-Identifier: Apache-2.0
//
// KafkaClientError: what the CLI's Kafka client throws when a call cannot be answered — the
// broker is unreachable, timed out, closed the connection, sent bytes the codec cannot
// decode, or answered with an error code. The message names the address or the error
// (e.g. "cannot connect to localhost:9092: Connection refused (is a broker running there?)").
// Thread-safe as any exception.
#pragma once

#include <stdexcept>
#include <string>

namespace kgroups::cli {

class KafkaClientError : public std::runtime_error {
 public:
  explicit KafkaClientError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace kgroups::cli
