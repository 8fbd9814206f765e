// SPDX-License-Identifier: Apache-2.0
#include "broker/storage/partition_files.h"

#include "broker/log_format/segment_file_name.h"
#include "broker/storage/file_segment_bytes.h"

namespace kgroups::broker {

std::shared_ptr<SegmentBytes> PartitionFiles::create_segment(std::int64_t base_offset,
                                                             std::size_t capacity) const {
  return FileSegmentBytes::create(directory_ / segment_file_name(base_offset, ".log"), base_offset,
                                  capacity);
}

std::shared_ptr<SegmentBytes> PartitionFiles::create_cleaned_segment(std::int64_t base_offset,
                                                                     std::size_t capacity) const {
  auto segment = FileSegmentBytes::create(
      directory_ / segment_file_name(base_offset, ".log.cleaned"), base_offset, capacity);
  try {
    segment->ensure_writable(capacity);
  } catch (...) {
    segment->discard();
    throw;
  }
  return segment;
}

}  // namespace kgroups::broker
