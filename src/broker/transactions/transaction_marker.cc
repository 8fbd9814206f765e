// SPDX-License-Identifier: Apache-2.0
#include "broker/transactions/transaction_marker.h"

#include <array>

#include "protocol/byte_view.h"
#include "protocol/record_batch_builder.h"

namespace kgroups::broker {

std::vector<std::uint8_t> transaction_marker(std::int64_t producer_id, std::int16_t producer_epoch,
                                             bool committed, std::int64_t timestamp_ms) {
  constexpr std::int16_t kTransactionalAndControl = 0x10 | 0x20;
  const std::int16_t type = committed ? kCommitMarkerType : kAbortMarkerType;
  const std::array<std::uint8_t, 4> key{0, 0, static_cast<std::uint8_t>(type >> 8),
                                        static_cast<std::uint8_t>(type & 0xFF)};
  const std::array<std::uint8_t, 6> value{0, 0, 0, 0, 0, 0};  // version 0, coordinator epoch 0
  protocol::RecordBatchBuilder builder;
  builder.set_producer(producer_id, producer_epoch, -1);
  builder.set_attributes(kTransactionalAndControl);
  builder.add(protocol::ByteView(key), protocol::ByteView(value), timestamp_ms);
  return builder.build();
}

}  // namespace kgroups::broker
