// SPDX-License-Identifier: Apache-2.0

#include "protocol/crc32c.h"

#include <array>
#include <cstddef>
#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <nmmintrin.h>
#define KGROUPS_CRC32C_SSE42 1
#endif

namespace kgroups::protocol {
namespace {

constexpr std::uint32_t kPolynomial = 0x82F63B78;  // reflected Castagnoli

using Tables = std::array<std::array<std::uint32_t, 256>, 8>;

constexpr Tables make_tables() {
  Tables tables{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t crc = i;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ ((crc & 1) ? kPolynomial : 0);
    tables[0][i] = crc;
  }
  for (std::size_t t = 1; t < 8; ++t) {
    for (std::size_t i = 0; i < 256; ++i) {
      tables[t][i] = (tables[t - 1][i] >> 8) ^ tables[0][tables[t - 1][i] & 0xFF];
    }
  }
  return tables;
}

constexpr Tables kTables = make_tables();

std::uint32_t load_le32(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
         (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}

#ifdef KGROUPS_CRC32C_SSE42
__attribute__((target("sse4.2"))) std::uint32_t crc32c_sse42(std::uint32_t crc,
                                                             const std::uint8_t* data,
                                                             std::size_t size) {
  std::uint64_t crc64 = crc;
  while (size >= 8) {
    std::uint64_t word;
    std::memcpy(&word, data, 8);
    crc64 = _mm_crc32_u64(crc64, word);
    data += 8;
    size -= 8;
  }
  auto crc32 = static_cast<std::uint32_t>(crc64);
  while (size > 0) {
    crc32 = _mm_crc32_u8(crc32, *data);
    ++data;
    --size;
  }
  return crc32;
}

bool cpu_has_sse42() {
  static const bool kHasSse42 = __builtin_cpu_supports("sse4.2");
  return kHasSse42;
}
#endif

}  // namespace

std::uint32_t crc32c_portable(std::uint32_t crc, std::span<const std::uint8_t> bytes) {
  const std::uint8_t* p = bytes.data();
  std::size_t size = bytes.size();
  crc = ~crc;
  while (size >= 8) {
    const std::uint32_t low = load_le32(p) ^ crc;
    const std::uint32_t high = load_le32(p + 4);
    crc = kTables[7][low & 0xFF] ^ kTables[6][(low >> 8) & 0xFF] ^ kTables[5][(low >> 16) & 0xFF] ^
          kTables[4][low >> 24] ^ kTables[3][high & 0xFF] ^ kTables[2][(high >> 8) & 0xFF] ^
          kTables[1][(high >> 16) & 0xFF] ^ kTables[0][high >> 24];
    p += 8;
    size -= 8;
  }
  while (size > 0) {
    crc = (crc >> 8) ^ kTables[0][(crc ^ *p) & 0xFF];
    ++p;
    --size;
  }
  return ~crc;
}

std::uint32_t crc32c_extend(std::uint32_t crc, std::span<const std::uint8_t> bytes) {
#ifdef KGROUPS_CRC32C_SSE42
  if (cpu_has_sse42()) return ~crc32c_sse42(~crc, bytes.data(), bytes.size());
#endif
  return crc32c_portable(crc, bytes);
}

std::uint32_t crc32c(std::span<const std::uint8_t> bytes) { return crc32c_extend(0, bytes); }

}  // namespace kgroups::protocol
