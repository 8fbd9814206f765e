// SPDX-License-Identifier: Apache-2.0
//
// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum of Kafka's magic-2
// record batches. Uses the SSE4.2 crc32 instruction when the CPU has it (checked once at
// run time) and a slicing-by-8 table otherwise; both give the same results.
// Thread-safe: pure functions.
#pragma once

#include <cstdint>
#include <span>

namespace kgroups::protocol {

// The CRC-32C of `bytes` (crc32c("123456789") == 0xE3069283).
std::uint32_t crc32c(std::span<const std::uint8_t> bytes);

// Continues a CRC-32C: crc32c_extend(crc32c(a), b) == crc32c(a + b).
std::uint32_t crc32c_extend(std::uint32_t crc, std::span<const std::uint8_t> bytes);

// The portable table-driven implementation, exposed so tests and benchmarks can compare it
// with the hardware path.
std::uint32_t crc32c_portable(std::uint32_t crc, std::span<const std::uint8_t> bytes);

}  // namespace kgroups::protocol
