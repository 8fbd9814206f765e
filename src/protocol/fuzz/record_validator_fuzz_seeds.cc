// SPDX-License-Identifier: Apache-2.0
//
// Writes the seed corpus of record_validator_fuzz: valid Produce batches, uncompressed and in
// every producer codec (gzip, snappy raw and xerial, lz4, zstd), of one, a few and many
// records with keys, null values and headers. scripts/test-fuzz runs it.
// Usage: record_validator_fuzz_seeds <directory>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "protocol/record_batch_builder.h"
#include "protocol/record_compressor.h"

namespace kgroups::protocol {
namespace {

constexpr std::int64_t kTime = 1700000000000;

RecordBatchBuilder builder_of(int count, std::size_t value_size) {
  RecordBatchBuilder builder;
  const RecordHeader headers[] = {{"trace", ByteView::of("abc")}, {"null", std::nullopt}};
  for (int i = 0; i < count; ++i) {
    const std::string key = "key-" + std::to_string(i);
    const std::string value(value_size, static_cast<char>('a' + i % 26));
    if (i % 3 == 2) {
      builder.add(std::nullopt, std::nullopt, kTime + (i * 7) % 11);
    } else {
      builder.add(
          ByteView::of(key), ByteView::of(value), kTime + (i * 7) % 11,
          i % 2 == 0 ? std::span<const RecordHeader>(headers) : std::span<const RecordHeader>());
    }
  }
  return builder;
}

bool write_file(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

int write_seeds(const std::string& directory) {
  int written = 0;
  struct Shape {
    int count;
    std::size_t value_size;
  };
  for (const Shape shape : {Shape{1, 10}, Shape{3, 0}, Shape{20, 40}, Shape{2, 20000}}) {
    const RecordBatchBuilder builder = builder_of(shape.count, shape.value_size);
    const std::string suffix =
        "_" + std::to_string(shape.count) + "x" + std::to_string(shape.value_size);
    std::string none_path = directory;
    none_path.append("/none").append(suffix);
    if (!write_file(none_path, builder.build())) return -1;
    ++written;
    for (const ProducerCodec& codec : kProducerCodecs) {
      const auto batch = build_compressed_batch(builder, codec.codec, codec.snappy_framing);
      std::string path = directory;
      path.append("/").append(codec.name).append(suffix);
      if (!write_file(path, batch)) return -1;
      ++written;
    }
  }
  return written;
}

}  // namespace
}  // namespace kgroups::protocol

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: record_validator_fuzz_seeds <directory>\n";
    return 2;
  }
  const int written = kgroups::protocol::write_seeds(argv[1]);
  if (written < 0) {
    std::cerr << "record_validator_fuzz_seeds: cannot write to " << argv[1] << "\n";
    return 1;
  }
  std::cout << written << "\n";
  return 0;
}
