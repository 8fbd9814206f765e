// SPDX-License-Identifier: Apache-2.0

#include "protocol/crc32c.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string_view>
#include <vector>

#include "protocol/byte_view.h"

namespace kgroups::protocol {
namespace {

TEST(Crc32c, MatchesTheStandardCheckValue) {
  EXPECT_EQ(crc32c(ByteView::of("123456789")), 0xE3069283u);
  EXPECT_EQ(crc32c_portable(0, ByteView::of("123456789")), 0xE3069283u);
  EXPECT_EQ(crc32c({}), 0u);
}

TEST(Crc32c, MatchesRfc3720TestVectors) {
  // RFC 3720 (iSCSI) B.4: 32 bytes of zeros, of 0xFF, and ascending 0..31.
  std::vector<std::uint8_t> zeros(32, 0);
  std::vector<std::uint8_t> ones(32, 0xFF);
  std::vector<std::uint8_t> ascending(32);
  for (std::size_t i = 0; i < 32; ++i) ascending[i] = static_cast<std::uint8_t>(i);
  EXPECT_EQ(crc32c(zeros), 0x8A9136AAu);
  EXPECT_EQ(crc32c(ones), 0x62A8AB43u);
  EXPECT_EQ(crc32c(ascending), 0x46DD794Eu);
}

TEST(Crc32c, HardwareAndPortablePathsAgreeOnEveryLengthAndAlignment) {
  std::vector<std::uint8_t> data(300);
  std::uint32_t state = 12345;
  for (auto& byte : data) {
    state = state * 1103515245 + 12345;
    byte = static_cast<std::uint8_t>(state >> 16);
  }
  for (std::size_t offset = 0; offset < 8; ++offset) {
    for (std::size_t size = 0; size + offset <= data.size(); size += 7) {
      const auto slice = std::span(data).subspan(offset, size);
      ASSERT_EQ(crc32c(slice), crc32c_portable(0, slice)) << offset << "+" << size;
    }
  }
}

// Batches of 768 bytes and more go through three streams side by side (256-byte streams,
// and 8 KiB ones from 24 KiB): every length around those edges, at every alignment.
TEST(Crc32c, ThreeStreamPathAgreesWithThePortableOneAroundEveryStreamEdge) {
  std::vector<std::uint8_t> data(3 * 24576 + 3 * 768 + 64);
  std::uint32_t state = 777;
  for (auto& byte : data) {
    state = state * 1103515245 + 12345;
    byte = static_cast<std::uint8_t>(state >> 16);
  }
  for (const std::size_t edge :
       {std::size_t{768}, std::size_t{1536}, std::size_t{24576}, std::size_t{24576 + 768},
        std::size_t{49152}, std::size_t{76032}}) {
    for (std::size_t size = edge - 9; size <= edge + 9; ++size) {
      for (std::size_t offset = 0; offset < 4; ++offset) {
        const auto slice = std::span(data).subspan(offset, size);
        ASSERT_EQ(crc32c(slice), crc32c_portable(0, slice)) << offset << "+" << size;
      }
    }
  }
  const auto whole = std::span(data);
  EXPECT_EQ(crc32c_extend(crc32c(whole.first(30000)), whole.subspan(30000)), crc32c(whole));
}

TEST(Crc32c, ExtendEqualsOneShot) {
  const ByteView whole = ByteView::of("hello, record batch");
  const std::uint32_t first = crc32c(whole.first(5));
  EXPECT_EQ(crc32c_extend(first, whole.subspan(5)), crc32c(whole));
}

// Reports throughput (not a pass/fail figure): run with --gtest_also_run_disabled_tests.
TEST(Crc32c, DISABLED_Throughput) {
  std::vector<std::uint8_t> data(1 << 20, 0x5A);
  for (auto* name : {"dispatch", "portable"}) {
    const auto start = std::chrono::steady_clock::now();
    std::uint32_t sink = 0;
    for (int i = 0; i < 256; ++i) {
      sink ^= std::string_view(name) == "portable" ? crc32c_portable(0, data) : crc32c(data);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("crc32c %s: %.0f MB/s (%08x)\n", name, 256.0 / seconds, sink);
  }
}

}  // namespace
}  // namespace kgroups::protocol
