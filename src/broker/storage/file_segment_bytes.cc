// SPDX-License-Identifier: Apache-2.0
#include "broker/storage/file_segment_bytes.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <span>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "broker/log_format/checkpoint_files.h"
#include "broker/log_format/segment_file_name.h"
#include "broker/log_format/segment_index_format.h"
#include "broker/log_format/segment_scan.h"
#include "broker/runtime/logger.h"

namespace kgroups::broker {
namespace {

constexpr std::size_t kPageBytes = 4096;
// Disk space is reserved at least this much at a time, and at most this much ahead.
constexpr std::size_t kMinReserveStep = std::size_t{64} << 10;
constexpr std::size_t kMaxReserveStep = std::size_t{8} << 20;

std::size_t round_up_to_page(std::size_t bytes) {
  return (std::max<std::size_t>(bytes, 1) + kPageBytes - 1) / kPageBytes * kPageBytes;
}

[[noreturn]] void throw_errno(int error, const std::string& what,
                              const std::filesystem::path& path) {
  throw std::system_error(error, std::generic_category(), what + " " + path.string());
}

std::uint8_t* map_file(int fd, std::size_t capacity, const std::filesystem::path& path) {
  void* data = ::mmap(nullptr, capacity, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (data == MAP_FAILED) {
    const int error = errno;
    ::close(fd);
    throw_errno(error, "cannot map", path);
  }
  return static_cast<std::uint8_t*>(data);
}

std::filesystem::path sibling(const std::filesystem::path& log_file, std::int64_t base_offset,
                              std::string_view suffix) {
  return log_file.parent_path() / segment_file_name(base_offset, suffix);
}

// Whether `path` holds exactly `bytes`.
bool holds(const std::filesystem::path& path, std::span<const std::uint8_t> bytes) {
  std::optional<std::string> existing;
  try {
    existing = read_small_file(path);
  } catch (const std::system_error&) {
    return false;
  }
  return existing && existing->size() == bytes.size() &&
         (bytes.empty() || std::memcmp(existing->data(), bytes.data(), bytes.size()) == 0);
}

bool write_if_changed(const std::filesystem::path& path, std::span<const std::uint8_t> bytes) {
  if (holds(path, bytes)) return false;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  if (!out) log_warn("cannot write " + path.string() + " (recovery rebuilds it)");
  return true;
}

}  // namespace

FileSegmentBytes::FileSegmentBytes(std::uint8_t* data, std::size_t capacity, std::size_t mapped,
                                   int fd, std::filesystem::path log_file, std::int64_t base_offset,
                                   std::size_t reserved)
    : SegmentBytes(data, capacity, /*in_memory=*/false),
      mapped_(mapped),
      fd_(fd),
      log_file_(std::move(log_file)),
      base_offset_(base_offset),
      reserved_(reserved) {}

std::shared_ptr<FileSegmentBytes> FileSegmentBytes::create(std::filesystem::path log_file,
                                                           std::int64_t base_offset,
                                                           std::size_t capacity) {
  const int fd = ::open(log_file.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw_errno(errno, "cannot create", log_file);
  const std::size_t mapped = round_up_to_page(capacity);
  std::uint8_t* data = map_file(fd, mapped, log_file);
  return std::shared_ptr<FileSegmentBytes>(
      new FileSegmentBytes(data, capacity, mapped, fd, std::move(log_file), base_offset, 0));
}

std::shared_ptr<FileSegmentBytes> FileSegmentBytes::open_closed(std::filesystem::path log_file,
                                                                std::int64_t base_offset,
                                                                std::size_t size) {
  const int fd = ::open(log_file.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) throw_errno(errno, "cannot open", log_file);
  const std::size_t mapped = round_up_to_page(size);
  std::uint8_t* data = map_file(fd, mapped, log_file);
  auto segment = std::shared_ptr<FileSegmentBytes>(
      new FileSegmentBytes(data, size, mapped, fd, std::move(log_file), base_offset, size));
  segment->closed_ = true;
  segment->closed_size_ = size;
  return segment;
}

FileSegmentBytes::~FileSegmentBytes() {
  if (!discarded_ && closed_ && reserved_ != closed_size_) {
    if (::ftruncate(fd_, static_cast<off_t>(closed_size_)) != 0) {
      log_warn("cannot trim " + log_file_.string() + ": " + std::strerror(errno));
    }
  }
  ::munmap(data(), mapped_);
  ::close(fd_);
}

void FileSegmentBytes::ensure_writable(std::size_t bytes) {
  if (bytes <= reserved_) return;
  if (bytes > capacity()) {
    throw std::system_error(
        std::make_error_code(std::errc::file_too_large),
        "segment " + log_file_.string() + " cannot hold " + std::to_string(bytes) + " bytes");
  }
  const std::size_t step = std::clamp(reserved_, kMinReserveStep, kMaxReserveStep);
  std::size_t wanted = std::min(round_up_to_page(std::max(bytes, reserved_ + step)), mapped_);
  while (true) {
    const int error = ::fallocate(fd_, 0, 0, static_cast<off_t>(wanted)) == 0 ? 0 : errno;
    if (error == 0) break;
    if (error == EOPNOTSUPP || error == ENOSYS) {
      // A file system without fallocate: a sparse file (a full disk then shows on writeback).
      if (::ftruncate(fd_, static_cast<off_t>(wanted)) != 0) {
        throw_errno(errno, "cannot grow", log_file_);
      }
      break;
    }
    const std::size_t exact = std::min(round_up_to_page(bytes), mapped_);
    if (error == ENOSPC && wanted > exact) {
      wanted = exact;  // the step does not fit: ask for what this batch needs alone
      continue;
    }
    throw_errno(error, "cannot reserve " + std::to_string(wanted) + " bytes for", log_file_);
  }
  reserved_ = wanted;
}

void FileSegmentBytes::close(std::size_t used, bool pinned) {
  closed_ = true;
  closed_size_ = used;
  write_indexes(log_file_, base_offset_, data(), used);
  if (pinned || reserved_ == used) return;
  if (::ftruncate(fd_, static_cast<off_t>(used)) == 0) {
    reserved_ = used;
  } else {
    log_warn("cannot trim " + log_file_.string() + ": " + std::strerror(errno));
  }
}

void FileSegmentBytes::truncated(std::size_t used) {
  const std::size_t end = std::min(reserved_, mapped_);
  if (used >= end) return;
  // The partial page by hand, whole pages by punching them out of the file.
  const std::size_t page_end = std::min(round_up_to_page(used), end);
  std::memset(data() + used, 0, page_end - used);
  if (page_end < end &&
      ::fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(page_end),
                  static_cast<off_t>(end - page_end)) != 0) {
    std::memset(data() + page_end, 0, end - page_end);
  }
  if (closed_) closed_size_ = std::min(closed_size_, used);
}

void FileSegmentBytes::discard() {
  if (discarded_) return;
  discarded_ = true;
  std::error_code ignored;
  std::filesystem::remove(log_file_, ignored);
  if (log_file_.extension() != ".log") return;  // a cleaner's file: no indexes of its own
  std::filesystem::remove(sibling(log_file_, base_offset_, ".index"), ignored);
  std::filesystem::remove(sibling(log_file_, base_offset_, ".timeindex"), ignored);
}

void FileSegmentBytes::sync() {
  if (::fdatasync(fd_) != 0) {
    log_error("cannot flush " + log_file_.string() + ": " + std::strerror(errno));
  }
}

void FileSegmentBytes::rename_log_file(std::filesystem::path to) {
  std::filesystem::rename(log_file_, to);
  log_file_ = std::move(to);
}

void FileSegmentBytes::begin_swap() {
  sync();
  rename_log_file(sibling(log_file_, base_offset_, ".log.swap"));
}

void FileSegmentBytes::finish_swap() { rename_log_file(sibling(log_file_, base_offset_, ".log")); }

bool FileSegmentBytes::write_indexes(const std::filesystem::path& log_file,
                                     std::int64_t base_offset, const std::uint8_t* data,
                                     std::size_t used) {
  const SegmentScan scan =
      scan_segment(std::span<const std::uint8_t>(data, used), base_offset, /*check_crc=*/false);
  const std::vector<std::uint8_t> offsets = build_offset_index(base_offset, scan.batches);
  const std::vector<std::uint8_t> times =
      build_time_index(base_offset, scan.batches, /*closed=*/true);
  const bool wrote_offsets = write_if_changed(sibling(log_file, base_offset, ".index"), offsets);
  const bool wrote_times = write_if_changed(sibling(log_file, base_offset, ".timeindex"), times);
  return wrote_offsets || wrote_times;
}

}  // namespace kgroups::broker
