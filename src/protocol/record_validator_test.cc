// SPDX-License-Identifier: Apache-2.0

#include "protocol/record_validator.h"

#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "protocol/batch_records.h"
#include "protocol/record_batch_builder.h"
#include "protocol/record_compressor.h"
#include "protocol/wire_writer.h"

namespace kgroups::protocol {
namespace {

constexpr std::int64_t kTime = 1700000000000;

// A builder holding `count` records: key "key-<i>", `value_size` bytes of value, time kTime + i.
RecordBatchBuilder builder_of(int count, std::size_t value_size = 8) {
  RecordBatchBuilder builder;
  for (int i = 0; i < count; ++i) {
    const std::string key = "key-" + std::to_string(i);
    const std::string value(value_size, static_cast<char>('a' + i % 26));
    builder.add(ByteView::of(key), ByteView::of(value), kTime + i);
  }
  return builder;
}

std::vector<std::uint8_t> batch_of(int count) { return builder_of(count).build(); }

// Writes a big-endian int32 at `at` and re-signs the batch, so only that field is wrong.
void put_int32(std::vector<std::uint8_t>& batch, std::size_t at, std::int32_t value) {
  for (int i = 0; i < 4; ++i) {
    batch[at + i] = static_cast<std::uint8_t>(static_cast<std::uint32_t>(value) >> (24 - 8 * i));
  }
  const std::uint32_t crc = compute_batch_crc(batch);
  for (int i = 0; i < 4; ++i)
    batch[kBatchCrcOffset + i] = static_cast<std::uint8_t>(crc >> (24 - 8 * i));
}

constexpr std::size_t kLastOffsetDeltaAt = 23;
constexpr std::size_t kRecordCountAt = 57;

// One record's fields as written on the wire; every field can be set to something invalid.
struct RawHeader {
  std::optional<std::string> key = "h";  // std::nullopt writes length -1
  std::optional<std::string> value = "v";
};
struct RawRecord {
  std::int64_t timestamp_delta = 0;
  std::int32_t offset_delta = 0;
  std::optional<std::string> key = "k";
  std::optional<std::int32_t> key_length{};  // written instead of the key's length
  std::optional<std::string> value = "v";
  std::optional<std::int32_t> value_length{};
  std::vector<RawHeader> headers{};
  std::optional<std::int32_t> header_count{};  // written instead of headers.size()
  std::string trailing{};                      // bytes after the last field
  std::optional<std::int32_t> length{};        // written instead of the body's length
};

void write_string(WireWriter& writer, const std::optional<std::string>& text,
                  std::optional<std::int32_t> length) {
  writer.write_varint(length.value_or(text ? static_cast<std::int32_t>(text->size()) : -1));
  if (text) writer.write_raw(ByteView::of(*text));
}

std::vector<std::uint8_t> encode(const RawRecord& record) {
  std::vector<std::uint8_t> body;
  WireWriter writer(body);
  writer.write_int8(0);
  writer.write_varlong(record.timestamp_delta);
  writer.write_varint(record.offset_delta);
  write_string(writer, record.key, record.key_length);
  write_string(writer, record.value, record.value_length);
  writer.write_varint(
      record.header_count.value_or(static_cast<std::int32_t>(record.headers.size())));
  for (const RawHeader& header : record.headers) {
    write_string(writer, header.key, std::nullopt);
    write_string(writer, header.value, std::nullopt);
  }
  writer.write_raw(ByteView::of(record.trailing));
  std::vector<std::uint8_t> out;
  WireWriter prefix(out);
  prefix.write_varint(record.length.value_or(static_cast<std::int32_t>(body.size())));
  prefix.write_raw(body);
  return out;
}

// A batch of the given records, as encoded, at base timestamp 0.
std::vector<std::uint8_t> batch_of_raw(const std::vector<RawRecord>& records) {
  RecordBatchBuilder builder;
  for (const RawRecord& record : records) builder.add_encoded(encode(record));
  return builder.build();
}

// Expects `records` to fail validation with `code` and a reason containing `reason`.
void expect_rejected(const std::vector<std::uint8_t>& records, ErrorCode code,
                     std::string_view reason, RecordValidatorOptions options = {}) {
  RecordValidator validator(options);
  auto result = validator.validate(records);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error(), code) << validator.rejection_reason();
  EXPECT_NE(validator.rejection_reason().find(reason), std::string_view::npos)
      << validator.rejection_reason();
}

TEST(RecordValidator, AcceptsAnUncompressedBatch) {
  const std::vector<std::uint8_t> batch = batch_of(3);
  RecordValidator validator;
  auto result = validator.validate(batch);
  ASSERT_TRUE(result) << validator.rejection_reason();
  EXPECT_EQ(result->header.record_count, 3);
  EXPECT_EQ(result->bytes.data(), batch.data());
  EXPECT_EQ(result->bytes.size(), batch.size());
  EXPECT_EQ(result->max_timestamp, kTime + 2);
  EXPECT_EQ(validator.rejection_reason(), "");
}

TEST(RecordValidator, AcceptsNullKeysValuesAndHeaderValues) {
  RawRecord record;
  record.key = std::nullopt;
  record.value = std::nullopt;
  record.headers = {{"a", std::nullopt}, {"", "x"}};
  RecordValidator validator;
  EXPECT_TRUE(validator.validate(batch_of_raw({record}))) << validator.rejection_reason();
}

TEST(RecordValidator, RequiringKeysRefusesANullKeyAsInvalidRecord) {
  RawRecord keyed;
  RawRecord keyless;
  keyless.key = std::nullopt;
  keyless.offset_delta = 1;
  RawRecord keyed_second;
  keyed_second.offset_delta = 1;
  RecordValidator validator;
  const auto batch = batch_of_raw({keyed, keyless});
  EXPECT_TRUE(validator.validate(batch));
  const auto refused = validator.validate(batch, /*require_keys=*/true);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error(), ErrorCode::kInvalidRecord);
  EXPECT_EQ(validator.rejection_reason(), "record 1: null key in a compacted topic");
  EXPECT_TRUE(validator.validate(batch_of_raw({keyed, keyed_second}), /*require_keys=*/true));
}

TEST(RecordValidator, MaxTimestampIsTheLargestRecordTimestamp) {
  RecordBatchBuilder builder;
  builder.add(std::nullopt, ByteView::of("a"), kTime + 10);
  builder.add(std::nullopt, ByteView::of("b"), kTime + 30);
  builder.add(std::nullopt, ByteView::of("c"), kTime);
  std::vector<std::uint8_t> batch = builder.build();
  write_max_timestamp(batch, kTime);  // a client's wrong claim, re-signed
  RecordValidator validator;
  auto result = validator.validate(batch);
  ASSERT_TRUE(result) << validator.rejection_reason();
  EXPECT_EQ(result->header.max_timestamp, kTime);
  EXPECT_EQ(result->max_timestamp, kTime + 30);
}

TEST(RecordValidator, MaxTimestampIsNoTimestampWhenEveryRecordIsOlder) {
  RecordBatchBuilder builder;
  builder.add(std::nullopt, ByteView::of("a"), -5);  // as Kafka: the maximum starts at -1
  RecordValidator validator;
  auto result = validator.validate(builder.build());
  ASSERT_TRUE(result);
  EXPECT_EQ(result->max_timestamp, kNoTimestamp);
}

TEST(RecordValidator, EmptyRecordsAreInvalidRecord) {
  expect_rejected({}, ErrorCode::kInvalidRecord, "no record batch");
}

TEST(RecordValidator, MagicOtherThanTwoIsUnsupportedForMessageFormat) {
  std::vector<std::uint8_t> batch = batch_of(1);
  batch[kBatchMagicOffset] = 1;
  expect_rejected(batch, ErrorCode::kUnsupportedForMessageFormat, "magic");
}

TEST(RecordValidator, BatchShorterThanItsHeaderIsCorruptMessage) {
  const std::vector<std::uint8_t> batch = batch_of(1);
  expect_rejected({batch.begin(), batch.begin() + 40}, ErrorCode::kCorruptMessage,
                  "shorter than a batch header");
}

TEST(RecordValidator, BatchLengthPastTheRecordsIsCorruptMessage) {
  std::vector<std::uint8_t> batch = batch_of(2);
  batch.pop_back();
  expect_rejected(batch, ErrorCode::kCorruptMessage, "runs past");
}

TEST(RecordValidator, BatchLengthBelowTheHeaderSizeIsCorruptMessage) {
  std::vector<std::uint8_t> batch = batch_of(1);
  put_int32(batch, kBatchLengthOffset, 20);
  expect_rejected(batch, ErrorCode::kCorruptMessage, "shorter than the header");
}

TEST(RecordValidator, MoreThanOneBatchIsInvalidRecord) {
  std::vector<std::uint8_t> records = batch_of(1);
  builder_of(1).build(records);
  expect_rejected(records, ErrorCode::kInvalidRecord, "more than one batch");
}

TEST(RecordValidator, CrcMismatchIsCorruptMessage) {
  std::vector<std::uint8_t> batch = batch_of(2);
  batch.back() ^= 0x01;
  expect_rejected(batch, ErrorCode::kCorruptMessage, "CRC");
}

TEST(RecordValidator, CodecAboveZstdIsUnsupportedCompressionType) {
  RecordBatchBuilder builder = builder_of(1);
  builder.set_attributes(5);
  expect_rejected(builder.build(), ErrorCode::kUnsupportedCompressionType, "codec");
}

TEST(RecordValidator, NonZeroBaseOffsetIsInvalidRecord) {
  std::vector<std::uint8_t> batch = batch_of(1);
  write_base_offset(batch, 42);  // outside the CRC
  expect_rejected(batch, ErrorCode::kInvalidRecord, "base_offset");
}

TEST(RecordValidator, NegativeLastOffsetDeltaIsInvalidRecord) {
  std::vector<std::uint8_t> batch = batch_of(1);
  put_int32(batch, kLastOffsetDeltaAt, -1);
  expect_rejected(batch, ErrorCode::kInvalidRecord, "last_offset_delta");
}

TEST(RecordValidator, NonPositiveRecordCountIsInvalidRecord) {
  expect_rejected(RecordBatchBuilder().build(), ErrorCode::kInvalidRecord,
                  "record_count is not positive");
}

TEST(RecordValidator, RecordCountOtherThanLastOffsetDeltaPlusOneIsInvalidRecord) {
  std::vector<std::uint8_t> batch = batch_of(3);
  put_int32(batch, kLastOffsetDeltaAt, 1);
  expect_rejected(batch, ErrorCode::kInvalidRecord, "last_offset_delta + 1");
}

TEST(RecordValidator, ControlBatchIsInvalidRecord) {
  RecordBatchBuilder builder = builder_of(1);
  builder.set_attributes(0x20);
  expect_rejected(builder.build(), ErrorCode::kInvalidRecord, "control batch");
}

TEST(RecordValidator, TransactionalBatchIsInvalidRecordUnlessAllowed) {
  RecordBatchBuilder builder = builder_of(1);
  builder.set_attributes(0x10);
  expect_rejected(builder.build(), ErrorCode::kInvalidRecord, "transactional");
  RecordValidator validator({.allow_transactions = true});
  EXPECT_TRUE(validator.validate(builder.build())) << validator.rejection_reason();
}

TEST(RecordValidator, ProducerIdIsInvalidRecordUnlessAllowed) {
  RecordBatchBuilder builder = builder_of(2);
  builder.set_producer(7, 0, 0);
  expect_rejected(builder.build(), ErrorCode::kInvalidRecord, "producer id");
  RecordValidator validator({.allow_producer_ids = true});
  EXPECT_TRUE(validator.validate(builder.build())) << validator.rejection_reason();
}

TEST(RecordValidator, ProducerIdWithNegativeBaseSequenceIsInvalidRecord) {
  RecordBatchBuilder builder = builder_of(1);
  builder.set_producer(7, 0, -1);
  expect_rejected(builder.build(), ErrorCode::kInvalidRecord, "base_sequence",
                  {.allow_producer_ids = true});
}

TEST(RecordValidator, LogAppendTimeFromAClientIsInvalidTimestamp) {
  RecordBatchBuilder builder = builder_of(1);
  builder.set_attributes(0x08);
  expect_rejected(builder.build(), ErrorCode::kInvalidTimestamp, "LogAppendTime");
}

TEST(RecordValidator, BatchClaimingMoreRecordsThanItHoldsIsInvalidRecord) {
  // 2^31 - 1 records and no record bytes: the high watermark would jump by 2^31.
  std::vector<std::uint8_t> empty = RecordBatchBuilder().build();
  put_int32(empty, kLastOffsetDeltaAt, std::numeric_limits<std::int32_t>::max() - 1);
  put_int32(empty, kRecordCountAt, std::numeric_limits<std::int32_t>::max());
  expect_rejected(empty, ErrorCode::kInvalidRecord, "record_count");
  // Three claimed, two present (enough bytes for three small records).
  std::vector<std::uint8_t> batch = batch_of(2);
  put_int32(batch, kLastOffsetDeltaAt, 2);
  put_int32(batch, kRecordCountAt, 3);
  expect_rejected(batch, ErrorCode::kInvalidRecord, "record 2: the records end");
}

TEST(RecordValidator, BatchHoldingMoreRecordsThanItClaimsIsInvalidRecord) {
  std::vector<std::uint8_t> batch = batch_of(3);
  put_int32(batch, kLastOffsetDeltaAt, 1);
  put_int32(batch, kRecordCountAt, 2);
  expect_rejected(batch, ErrorCode::kInvalidRecord, "bytes left after record_count records");
}

TEST(RecordValidator, OffsetDeltaOtherThanTheRecordIndexIsInvalidRecord) {
  expect_rejected(batch_of_raw({RawRecord{}, RawRecord{.offset_delta = 2}}),
                  ErrorCode::kInvalidRecord, "record 1: offset delta");
}

TEST(RecordValidator, NegativeRecordLengthIsCorruptMessage) {
  expect_rejected(batch_of_raw({RawRecord{}, RawRecord{.offset_delta = 1, .length = -3}}),
                  ErrorCode::kCorruptMessage, "record 1: negative length");
}

TEST(RecordValidator, RecordLongerThanTheBatchIsCorruptMessage) {
  expect_rejected(batch_of_raw({RawRecord{.length = 100}}), ErrorCode::kCorruptMessage,
                  "record 0: length runs past the batch");
}

TEST(RecordValidator, RecordTooShortForItsFieldsIsCorruptMessage) {
  // The length covers the attributes and nothing more.
  expect_rejected(batch_of_raw({RawRecord{.length = 1}, RawRecord{}}), ErrorCode::kCorruptMessage,
                  "record 0: timestamp delta runs past the record");
}

TEST(RecordValidator, KeyRunningPastTheRecordIsCorruptMessage) {
  expect_rejected(batch_of_raw({RawRecord{}, RawRecord{.offset_delta = 1, .key_length = 40}}),
                  ErrorCode::kCorruptMessage, "record 1: key runs past the record");
}

TEST(RecordValidator, NegativeKeyLengthOtherThanNullIsCorruptMessage) {
  expect_rejected(batch_of_raw({RawRecord{.key = std::nullopt, .key_length = -2}}),
                  ErrorCode::kCorruptMessage, "negative key length");
}

TEST(RecordValidator, ValueRunningPastTheRecordIsCorruptMessage) {
  expect_rejected(batch_of_raw({RawRecord{.value_length = 9}}), ErrorCode::kCorruptMessage,
                  "value runs past the record");
}

TEST(RecordValidator, NegativeValueLengthOtherThanNullIsCorruptMessage) {
  expect_rejected(batch_of_raw({RawRecord{.value = std::nullopt, .value_length = -7}}),
                  ErrorCode::kCorruptMessage, "negative value length");
}

TEST(RecordValidator, NegativeHeaderCountIsCorruptMessage) {
  expect_rejected(batch_of_raw({RawRecord{.header_count = -1}}), ErrorCode::kCorruptMessage,
                  "negative header count");
}

TEST(RecordValidator, HeaderCountBeyondTheRecordIsCorruptMessage) {
  expect_rejected(batch_of_raw({RawRecord{.header_count = 1000}}), ErrorCode::kCorruptMessage,
                  "header count runs past the record");
}

TEST(RecordValidator, NullHeaderKeyIsCorruptMessage) {
  expect_rejected(batch_of_raw({RawRecord{.headers = {{std::nullopt, "v"}}}}),
                  ErrorCode::kCorruptMessage, "null header key");
}

TEST(RecordValidator, BytesAfterTheLastFieldOfARecordAreCorruptMessage) {
  expect_rejected(batch_of_raw({RawRecord{.trailing = "xx"}}), ErrorCode::kCorruptMessage,
                  "record 0: bytes left after the record's last field");
}

TEST(RecordValidator, UnterminatedVarintIsCorruptMessage) {
  RecordBatchBuilder builder;
  builder.add_encoded(encode(RawRecord{}));
  const std::uint8_t unterminated[] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  builder.add_encoded(unterminated);
  expect_rejected(builder.build(), ErrorCode::kCorruptMessage,
                  "record 1: length is not a valid varint");
}

TEST(RecordValidator, TimestampOverflowIsInvalidTimestamp) {
  RecordBatchBuilder builder;
  builder.add(std::nullopt, ByteView::of("a"), std::numeric_limits<std::int64_t>::max() - 5);
  builder.add_encoded(encode(RawRecord{.timestamp_delta = 10, .offset_delta = 1}));
  expect_rejected(builder.build(), ErrorCode::kInvalidTimestamp, "record 1: base_timestamp");

  RecordBatchBuilder negative;
  negative.add(std::nullopt, ByteView::of("a"), std::numeric_limits<std::int64_t>::min() + 5);
  negative.add_encoded(encode(RawRecord{.timestamp_delta = -10, .offset_delta = 1}));
  expect_rejected(negative.build(), ErrorCode::kInvalidTimestamp, "overflows");
}

TEST(RecordValidator, AcceptsEveryProducerCodec) {
  RecordValidator validator;
  for (const int count : {1, 100}) {
    for (const ProducerCodec& codec : kProducerCodecs) {
      SCOPED_TRACE(std::string(codec.name) + " x" + std::to_string(count));
      const auto batch =
          build_compressed_batch(builder_of(count, 500), codec.codec, codec.snappy_framing);
      auto result = validator.validate(batch);
      ASSERT_TRUE(result) << validator.rejection_reason();
      EXPECT_EQ(result->header.compression(), codec.codec);
      EXPECT_EQ(result->max_timestamp, kTime + count - 1);
    }
  }
}

TEST(RecordValidator, CompressedRecordsAreWalkedLikeUncompressedOnes) {
  RecordBatchBuilder bad_offsets;
  bad_offsets.add_encoded(encode(RawRecord{}));
  bad_offsets.add_encoded(encode(RawRecord{.offset_delta = 5}));
  RecordBatchBuilder bad_key;
  bad_key.add_encoded(encode(RawRecord{.key_length = 30}));
  for (const ProducerCodec& codec : kProducerCodecs) {
    SCOPED_TRACE(codec.name);
    expect_rejected(build_compressed_batch(bad_offsets, codec.codec, codec.snappy_framing),
                    ErrorCode::kInvalidRecord, "record 1: offset delta");
    expect_rejected(build_compressed_batch(bad_key, codec.codec, codec.snappy_framing),
                    ErrorCode::kCorruptMessage, "record 0: key runs past the record");
  }
}

TEST(RecordValidator, CompressedBatchClaimingMoreRecordsThanItHoldsIsInvalidRecord) {
  for (const ProducerCodec& codec : kProducerCodecs) {
    SCOPED_TRACE(codec.name);
    std::vector<std::uint8_t> batch =
        build_compressed_batch(builder_of(2), codec.codec, codec.snappy_framing);
    put_int32(batch, kLastOffsetDeltaAt, 2);
    put_int32(batch, kRecordCountAt, 3);
    expect_rejected(batch, ErrorCode::kInvalidRecord, "record 2: the records end");
    // A count no limit could hold is refused before decompressing.
    put_int32(batch, kLastOffsetDeltaAt, std::numeric_limits<std::int32_t>::max() - 1);
    put_int32(batch, kRecordCountAt, std::numeric_limits<std::int32_t>::max());
    expect_rejected(batch, ErrorCode::kInvalidRecord, "max_uncompressed_bytes");
  }
}

TEST(RecordValidator, TruncatedCompressedRecordsAreCorruptMessage) {
  const RecordBatchBuilder builder = builder_of(50, 200);
  for (const ProducerCodec& codec : kProducerCodecs) {
    SCOPED_TRACE(codec.name);
    const auto compressed = compress_records(codec.codec, builder.records(), codec.snappy_framing);
    std::vector<std::uint8_t> batch;
    builder.build_compressed(codec.codec, std::span(compressed).first(compressed.size() / 2),
                             batch);
    expect_rejected(batch, ErrorCode::kCorruptMessage, codec.name.substr(0, 4));
  }
}

TEST(RecordValidator, GarbledCompressedRecordsAreCorruptMessage) {
  const RecordBatchBuilder builder = builder_of(50, 200);
  for (const ProducerCodec& codec : kProducerCodecs) {
    SCOPED_TRACE(codec.name);
    auto compressed = compress_records(codec.codec, builder.records(), codec.snappy_framing);
    if (codec.codec == Compression::kSnappy && codec.snappy_framing == SnappyFraming::kRaw) {
      compressed[0] = 0x05;  // the block's length: far too small
    } else {
      for (std::size_t i = 0; i < 4; ++i) compressed[i] = 0xFF;  // magic or gzip header
    }
    std::vector<std::uint8_t> batch;
    builder.build_compressed(codec.codec, compressed, batch);
    expect_rejected(batch, ErrorCode::kCorruptMessage, "");
  }
}

TEST(RecordValidator, GzipBombIsInvalidRecord) {
  // 8 MiB of zeros in one record value, against a 1 MiB limit.
  RecordBatchBuilder builder;
  const std::vector<std::uint8_t> zeros(8 << 20);
  builder.add(std::nullopt, ByteView(zeros), kTime);
  const auto bomb = build_compressed_batch(builder, Compression::kGzip);
  ASSERT_LT(bomb.size(), 16u * 1024);
  expect_rejected(bomb, ErrorCode::kInvalidRecord, "gzip: output exceeds the limit",
                  {.max_uncompressed_bytes = 1 << 20});
}

TEST(RecordValidator, RecordsOverTheLimitAreInvalidRecordInEveryCodec) {
  const RecordBatchBuilder builder = builder_of(100, 1000);
  for (const ProducerCodec& codec : kProducerCodecs) {
    SCOPED_TRACE(codec.name);
    const auto batch = build_compressed_batch(builder, codec.codec, codec.snappy_framing);
    expect_rejected(batch, ErrorCode::kInvalidRecord, "exceeds the limit",
                    {.max_uncompressed_bytes = 50000});
  }
}

TEST(RecordValidator, ReasonIsClearedBySuccess) {
  RecordValidator validator;
  EXPECT_FALSE(validator.validate({}));
  EXPECT_NE(validator.rejection_reason(), "");
  EXPECT_TRUE(validator.validate(batch_of(1)));
  EXPECT_EQ(validator.rejection_reason(), "");
}

TEST(RecordValidator, FindsTheFirstRecordAtOrAfterATimestamp) {
  RecordBatchBuilder builder;
  for (const std::int64_t time : {kTime + 10, kTime + 30, kTime + 20, kTime + 40}) {
    builder.add(std::nullopt, ByteView::of("v"), time);
  }
  std::vector<std::uint8_t> uncompressed = builder.build();
  write_base_offset(uncompressed, 1000);  // stored batches carry the broker's offsets
  RecordValidator validator;
  std::vector<std::vector<std::uint8_t>> batches = {uncompressed};
  for (const ProducerCodec& codec : kProducerCodecs) {
    batches.push_back(build_compressed_batch(builder, codec.codec, codec.snappy_framing));
  }
  for (const auto& batch : batches) {
    using Found = std::optional<RecordAtTimestamp>;
    auto first = validator.find_record_at_or_after(batch, kTime);
    ASSERT_TRUE(first) << validator.rejection_reason();
    EXPECT_EQ(*first, Found(RecordAtTimestamp{0, kTime + 10}));
    auto middle = validator.find_record_at_or_after(batch, kTime + 15);
    ASSERT_TRUE(middle);
    EXPECT_EQ(*middle, Found(RecordAtTimestamp{1, kTime + 30}));
    auto exact = validator.find_record_at_or_after(batch, kTime + 40);
    ASSERT_TRUE(exact);
    EXPECT_EQ(*exact, Found(RecordAtTimestamp{3, kTime + 40}));
    auto none = validator.find_record_at_or_after(batch, kTime + 41);
    ASSERT_TRUE(none);
    EXPECT_EQ(*none, std::nullopt);
  }
}

TEST(RecordValidator, FindInALogAppendTimeBatchUsesItsMaxTimestamp) {
  RecordBatchBuilder builder = builder_of(3);
  builder.set_attributes(0x08);
  const std::vector<std::uint8_t> batch = builder.build();
  RecordValidator validator;
  auto found = validator.find_record_at_or_after(batch, kTime + 1);
  ASSERT_TRUE(found);
  EXPECT_EQ(*found, std::optional(RecordAtTimestamp{0, kTime + 2}));
  auto none = validator.find_record_at_or_after(batch, kTime + 3);
  ASSERT_TRUE(none);
  EXPECT_EQ(*none, std::nullopt);
}

TEST(RecordValidator, FindInACorruptBatchIsAnError) {
  std::vector<std::uint8_t> batch = batch_of_raw({RawRecord{.key_length = 30}});
  RecordValidator validator;
  auto found = validator.find_record_at_or_after(batch, 0);
  ASSERT_FALSE(found);
  EXPECT_EQ(found.error(), ErrorCode::kCorruptMessage);
  auto truncated = validator.find_record_at_or_after(std::span(batch).first(60), 0);
  ASSERT_FALSE(truncated);
  EXPECT_EQ(truncated.error(), ErrorCode::kCorruptMessage);
}

TEST(RecordValidator, AgreesWithTheRecordDecoderOnValidBatches) {
  RecordBatchBuilder builder;
  const RecordHeader headers[] = {{"trace", ByteView::of("abc")}, {"empty", std::nullopt}};
  builder.add(ByteView::of("key"), ByteView::of(std::string(300, 'x')), kTime + 3, headers);
  builder.add(std::nullopt, std::nullopt, kTime - 1000);
  const std::vector<std::uint8_t> batch = builder.build();
  RecordValidator validator;
  auto result = validator.validate(batch);
  ASSERT_TRUE(result) << validator.rejection_reason();
  auto records = decode_batch_records(batch);
  ASSERT_TRUE(records);
  EXPECT_EQ(static_cast<std::int32_t>(records->size()), result->header.record_count);
  EXPECT_EQ(result->max_timestamp, kTime + 3);
}

}  // namespace
}  // namespace kgroups::protocol
