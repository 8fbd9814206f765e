// SPDX-License-Identifier: Apache-2.0
//
// The cost RecordValidator adds to every Produce: validate() on one partition's batch of 1
// and 100 small records (16-byte key, 32-byte value), of 1000 records with 100-byte values
// (about what bench/broker_bench.sh's produce phase sends) and of 10 KiB records,
// uncompressed (the hot path) and in each producer codec; against
// split_record_batches, which checks only the sizes and the CRC-32C: the broker's cost
// before the validator.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "protocol/record_batch.h"
#include "protocol/record_batch_builder.h"
#include "protocol/record_compressor.h"
#include "protocol/record_validator.h"

namespace kgroups::bench {
namespace {

using protocol::ByteView;

constexpr std::int64_t kTime = 1700000000000;
constexpr std::size_t kKeySize = 16;

protocol::RecordBatchBuilder builder_of(std::int64_t count, std::int64_t value_size) {
  protocol::RecordBatchBuilder builder;
  std::string key(kKeySize, 'k');
  std::string value(static_cast<std::size_t>(value_size), 'v');
  for (std::int64_t i = 0; i < count; ++i) {
    key[0] = static_cast<char>('a' + i % 26);
    value[0] = static_cast<char>('a' + i % 26);
    builder.add(ByteView::of(key), ByteView::of(value), kTime + i);
  }
  return builder;
}

void report(benchmark::State& state, std::size_t batch_bytes, std::int64_t records) {
  state.SetItemsProcessed(state.iterations() * records);
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(batch_bytes));
}

// Args: record count, value size in bytes.
void BM_Validate_Uncompressed(benchmark::State& state) {
  const std::vector<std::uint8_t> batch = builder_of(state.range(0), state.range(1)).build();
  protocol::RecordValidator validator;
  for (auto _ : state) {
    auto result = validator.validate(batch);
    if (!result) std::abort();
    benchmark::DoNotOptimize(result->max_timestamp);
  }
  report(state, batch.size(), state.range(0));
}

// The baseline: the size and CRC-32C checks alone.
void BM_SplitAndCrc_Uncompressed(benchmark::State& state) {
  const std::vector<std::uint8_t> batch = builder_of(state.range(0), state.range(1)).build();
  for (auto _ : state) {
    auto batches = protocol::split_record_batches(batch);
    if (!batches) std::abort();
    benchmark::DoNotOptimize(batches->data());
  }
  report(state, batch.size(), state.range(0));
}

// Args: index into kProducerCodecs, record count, value size in bytes.
void BM_Validate_Compressed(benchmark::State& state) {
  const protocol::ProducerCodec& codec =
      protocol::kProducerCodecs.at(static_cast<std::size_t>(state.range(0)));
  state.SetLabel(std::string(codec.name));
  const std::vector<std::uint8_t> batch = protocol::build_compressed_batch(
      builder_of(state.range(1), state.range(2)), codec.codec, codec.snappy_framing);
  protocol::RecordValidator validator;
  for (auto _ : state) {
    auto result = validator.validate(batch);
    if (!result) std::abort();
    benchmark::DoNotOptimize(result->max_timestamp);
  }
  report(state, batch.size(), state.range(1));
}

void uncompressed_shapes(benchmark::internal::Benchmark* bench) {
  bench->ArgNames({"records", "value_bytes"});
  bench->Args({1, 32})->Args({100, 32})->Args({1000, 100})->Args({1, 10240})->Args({10, 10240});
}

void compressed_shapes(benchmark::internal::Benchmark* bench) {
  bench->ArgNames({"codec", "records", "value_bytes"});
  for (std::int64_t codec = 0; codec < static_cast<std::int64_t>(protocol::kProducerCodecs.size());
       ++codec) {
    bench->Args({codec, 100, 32})->Args({codec, 10, 10240});
  }
}

BENCHMARK(BM_Validate_Uncompressed)->Apply(uncompressed_shapes);
BENCHMARK(BM_SplitAndCrc_Uncompressed)->Apply(uncompressed_shapes);
BENCHMARK(BM_Validate_Compressed)->Apply(compressed_shapes);

}  // namespace
}  // namespace kgroups::bench
