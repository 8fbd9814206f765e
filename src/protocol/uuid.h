// SPDX-License-Identifier: Apache-2.0
//
// Uuid: Kafka's 16-byte UUID type (topic ids, KIP-516), as raw bytes in wire order. The
// all-zero value is Kafka's "zero UUID", meaning no id. Thread-safe: a plain value.
#pragma once

#include <array>
#include <cstdint>

namespace kgroups::protocol {

using Uuid = std::array<std::uint8_t, 16>;

}  // namespace kgroups::protocol
