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
// Moving a CRC register past n zero bytes is linear over GF(2): a 32x32 bit matrix, kept
// as four tables, one per byte of the register. It joins the registers of streams that
// were computed side by side: the register after A then B is the register after A moved
// past |B| zero bytes, xor the register of B computed from zero.
using ZeroBytesShift = std::array<std::array<std::uint32_t, 256>, 4>;
using ShiftColumns = std::array<std::uint32_t, 32>;  // where each register bit goes

constexpr ZeroBytesShift from_columns(const ShiftColumns& column) {
  ZeroBytesShift shift{};
  for (std::size_t byte = 0; byte < 4; ++byte) {
    for (std::uint32_t value = 0; value < 256; ++value) {
      std::uint32_t moved = 0;
      for (std::size_t bit = 0; bit < 8; ++bit) {
        if ((value >> bit) & 1U) moved ^= column[8 * byte + bit];
      }
      shift[byte][value] = moved;
    }
  }
  return shift;
}

constexpr std::uint32_t shift_past_zeros(const ZeroBytesShift& shift, std::uint32_t state) {
  return shift[0][state & 0xFF] ^ shift[1][(state >> 8) & 0xFF] ^ shift[2][(state >> 16) & 0xFF] ^
         shift[3][state >> 24];
}

// Past `zero_bytes` zero bytes, one byte at a time (cheap enough for compile time when short).
constexpr ZeroBytesShift past_zero_bytes(std::size_t zero_bytes) {
  ShiftColumns column{};
  for (std::size_t bit = 0; bit < 32; ++bit) {
    std::uint32_t state = std::uint32_t{1} << bit;
    for (std::size_t i = 0; i < zero_bytes; ++i) state = (state >> 8) ^ kTables[0][state & 0xFF];
    column[bit] = state;
  }
  return from_columns(column);
}

// `shift` applied `times` times.
constexpr ZeroBytesShift repeated(const ZeroBytesShift& shift, std::size_t times) {
  ShiftColumns column{};
  for (std::size_t bit = 0; bit < 32; ++bit) {
    std::uint32_t state = std::uint32_t{1} << bit;
    for (std::size_t i = 0; i < times; ++i) state = shift_past_zeros(shift, state);
    column[bit] = state;
  }
  return from_columns(column);
}

// Three streams side by side: the crc32 instruction takes 3 cycles but starts one each
// cycle, so one stream uses a third of it. Long streams for large batches, short ones
// for the rest of a batch (and for batches of a few KiB).
constexpr std::size_t kLongStream = 8192;
constexpr std::size_t kShortStream = 256;
constexpr ZeroBytesShift kPastShortStream = past_zero_bytes(kShortStream);
constexpr ZeroBytesShift kPastLongStream = repeated(kPastShortStream, kLongStream / kShortStream);

template <std::size_t kStream>
__attribute__((target("sse4.2"))) std::uint32_t crc32c_three_streams(std::uint32_t crc,
                                                                     const std::uint8_t*& data,
                                                                     std::size_t& size,
                                                                     const ZeroBytesShift& past) {
  while (size >= 3 * kStream) {
    std::uint64_t first = crc;
    std::uint64_t second = 0;
    std::uint64_t third = 0;
    for (std::size_t at = 0; at < kStream; at += 8) {
      std::uint64_t word[3];
      std::memcpy(&word[0], data + at, 8);
      std::memcpy(&word[1], data + kStream + at, 8);
      std::memcpy(&word[2], data + 2 * kStream + at, 8);
      first = _mm_crc32_u64(first, word[0]);
      second = _mm_crc32_u64(second, word[1]);
      third = _mm_crc32_u64(third, word[2]);
    }
    crc = shift_past_zeros(past, static_cast<std::uint32_t>(first)) ^
          static_cast<std::uint32_t>(second);
    crc = shift_past_zeros(past, crc) ^ static_cast<std::uint32_t>(third);
    data += 3 * kStream;
    size -= 3 * kStream;
  }
  return crc;
}

__attribute__((target("sse4.2"))) std::uint32_t crc32c_sse42(std::uint32_t crc,
                                                             const std::uint8_t* data,
                                                             std::size_t size) {
  crc = crc32c_three_streams<kLongStream>(crc, data, size, kPastLongStream);
  crc = crc32c_three_streams<kShortStream>(crc, data, size, kPastShortStream);
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
