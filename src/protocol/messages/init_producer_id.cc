// SPDX-License-Identifier: Apache-2.0

#include "protocol/messages/init_producer_id.h"

namespace kgroups::protocol {

Result<InitProducerIdRequest> InitProducerIdRequest::decode(WireReader& reader,
                                                            std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  InitProducerIdRequest request;
  request.transactional_id = reader.read_nullable_string();
  request.transaction_timeout_ms = reader.read_int32();
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return request;
}

void InitProducerIdRequest::encode(WireWriter& writer,
                                   [[maybe_unused]] std::int16_t version) const {
  writer.write_nullable_string(transactional_id);
  writer.write_int32(transaction_timeout_ms);
}

Result<InitProducerIdResponse> InitProducerIdResponse::decode(WireReader& reader,
                                                              std::int16_t version) {
  if (version < kMinVersion || version > kMaxVersion) return ErrorCode::kUnsupportedVersion;
  InitProducerIdResponse response;
  response.throttle_time_ms = reader.read_int32();
  response.error_code = static_cast<ErrorCode>(reader.read_int16());
  response.producer_id = reader.read_int64();
  response.producer_epoch = reader.read_int16();
  if (!reader.ok()) return ErrorCode::kInvalidRequest;
  return response;
}

void InitProducerIdResponse::encode(WireWriter& writer,
                                    [[maybe_unused]] std::int16_t version) const {
  writer.write_int32(throttle_time_ms);
  writer.write_int16(static_cast<std::int16_t>(error_code));
  writer.write_int64(producer_id);
  writer.write_int16(producer_epoch);
}

}  // namespace kgroups::protocol
