// SPDX-License-Identifier: Apache-2.0
#include "broker/segment_bytes.h"

namespace kgroups::broker {

std::shared_ptr<SegmentBytes> SegmentBytes::allocate(std::size_t capacity) {
  return std::make_shared<SegmentBytes>(capacity);
}

SegmentBytes::SegmentBytes(std::size_t capacity)
    : bytes_(std::make_unique_for_overwrite<std::uint8_t[]>(capacity)), capacity_(capacity) {}

}  // namespace kgroups::broker
