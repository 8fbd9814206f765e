// SPDX-License-Identifier: Apache-2.0
//
// ResponseBuffer: one response frame as a connection builds and sends it: the encoded bytes,
// with stored record batches left out of them and spliced in at their positions
// (WireWriter::splice_into()) so that one gathered write sends them straight from the log's
// segments, which `pins` keeps alive until the frame is written or dropped. The frame on
// the wire is `bytes` with each spliced range inserted before bytes[position].
// Not thread-safe: one connection's, on the broker's network thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "broker/storage/segment_pins.h"
#include "protocol/wire_writer.h"

namespace kgroups::broker {

struct ResponseBuffer {
  std::vector<std::uint8_t> bytes;              // encoded, without the spliced ranges
  std::vector<protocol::SplicedRange> spliced;  // in position order
  SegmentPins pins;                             // what the spliced ranges lie in
  std::size_t spliced_bytes = 0;                // total size of the spliced ranges

  // Bytes of the frame on the wire.
  [[nodiscard]] std::size_t size() const { return bytes.size() + spliced_bytes; }
  // Memory the response makes the broker hold while it is queued: its buffers' capacity and
  // the spliced bytes (which a dropped segment leaves to the response alone).
  [[nodiscard]] std::size_t memory_bytes() const {
    return bytes.capacity() + spliced.capacity() * sizeof(protocol::SplicedRange) +
           pins.memory_bytes() + spliced_bytes;
  }
  // Empties it for reuse, keeping the capacity; lets the pinned segments go.
  void clear() {
    bytes.clear();
    spliced.clear();
    pins.clear();
    spliced_bytes = 0;
  }
};

}  // namespace kgroups::broker
