// SPDX-License-Identifier: Apache-2.0
#include "protocol/coordinator_records/transaction_log_key.h"

#include "protocol/wire_reader.h"
#include "protocol/wire_writer.h"

namespace kgroups::protocol {

// GCC 12 at -O2 reports a write past a 2-byte allocation in vector::insert, inlined from the
// first write_int16 into the empty vector: a false positive of its -Wstringop-overflow on
// vector::insert (a reserve() does not quiet it). Silenced for this function only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
std::vector<std::uint8_t> TransactionLogKey::encode(std::string_view transactional_id) {
  std::vector<std::uint8_t> out;
  WireWriter writer(out);
  writer.write_int16(kVersion);
  writer.write_string(transactional_id);
  return out;
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

Result<std::string> TransactionLogKey::decode(std::span<const std::uint8_t> bytes) {
  WireReader reader(bytes);
  if (reader.read_int16() != kVersion) return ErrorCode::kCorruptMessage;
  std::string transactional_id(reader.read_string());
  if (!reader.ok() || reader.remaining() != 0) return ErrorCode::kCorruptMessage;
  return transactional_id;
}

}  // namespace kgroups::protocol
