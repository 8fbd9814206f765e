// SPDX-License-Identifier: Apache-2.0
#include "broker/log_format/checkpoint_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <system_error>

namespace kgroups::broker {
namespace {

constexpr std::string_view kBase64Url =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
constexpr std::size_t kUuidTextLength = 22;
constexpr std::string_view kVersionLine = "0";

[[noreturn]] void throw_errno(int error, const std::string& what,
                              const std::filesystem::path& path) {
  throw std::system_error(error, std::generic_category(), what + " " + path.string());
}

// A file descriptor closed when it goes out of scope.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  [[nodiscard]] int get() const { return fd_; }
  // Closes now, reporting the error close() gives (0 when none).
  int close() {
    const int result = ::close(fd_);
    fd_ = -1;
    return result == 0 ? 0 : errno;
  }

 private:
  int fd_;
};

void write_all(int fd, std::string_view contents, const std::filesystem::path& path) {
  while (!contents.empty()) {
    const ssize_t written = ::write(fd, contents.data(), contents.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      throw_errno(errno, "cannot write", path);
    }
    contents.remove_prefix(static_cast<std::size_t>(written));
  }
}

void write_and_sync(const std::filesystem::path& path, std::string_view contents) {
  FileDescriptor fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  if (fd.get() < 0) throw_errno(errno, "cannot create", path);
  write_all(fd.get(), contents, path);
  if (::fsync(fd.get()) != 0) throw_errno(errno, "cannot flush", path);
  if (const int error = fd.close(); error != 0) throw_errno(error, "cannot close", path);
}

void sync_folder(const std::filesystem::path& folder) {
  FileDescriptor fd(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() < 0) throw_errno(errno, "cannot open the folder", folder);
  if (::fsync(fd.get()) != 0) throw_errno(errno, "cannot flush the folder", folder);
}

// The lines of `text` without their "\n" or "\r\n"; a last line without "\n" counts.
std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\f'; }

// The fields of a checkpoint line, split at runs of whitespace (Kafka splits at "\s+", so a
// line starting with whitespace has an empty first field, which no entry parses).
std::vector<std::string_view> fields_of(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  for (std::size_t at = 0; at <= line.size(); ++at) {
    if (at == line.size() || is_space(line[at])) {
      fields.push_back(line.substr(start, at - start));
      while (at + 1 < line.size() && is_space(line[at + 1])) ++at;
      start = at + 1;
    }
  }
  return fields;
}

template <typename Number>
bool parse_number(std::string_view text, Number& value) {
  if (text.starts_with('+')) text.remove_prefix(1);  // Java's parseInt accepts a '+'
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return !text.empty() && error == std::errc() && end == text.data() + text.size();
}

// The entry lines of a checkpoint after its version and count lines, as Kafka's
// CheckpointReadBuffer reads them: an empty text or one without a count has no entries; the
// count must match the lines that follow. nullopt with `error` otherwise.
std::optional<std::vector<std::string_view>> entry_lines(std::string_view text,
                                                         std::string& error) {
  std::vector<std::string_view> lines = lines_of(text);
  if (lines.empty()) return std::vector<std::string_view>{};
  std::int32_t version = 0;
  if (!parse_number(lines[0], version) || version != 0) {
    error = "line 1 is '" + std::string(lines[0]) + "', not the version 0";
    return std::nullopt;
  }
  if (lines.size() == 1) return std::vector<std::string_view>{};
  std::int32_t count = 0;
  if (!parse_number(lines[1], count) || count < 0) {
    error = "line 2 is '" + std::string(lines[1]) + "', not the count of entries";
    return std::nullopt;
  }
  lines.erase(lines.begin(), lines.begin() + 2);
  if (lines.size() != static_cast<std::size_t>(count)) {
    error = "line 2 counts " + std::to_string(count) + " entries but " +
            std::to_string(lines.size()) + " follow";
    return std::nullopt;
  }
  return lines;
}

std::string malformed(std::size_t index, std::string_view line, std::string_view expected) {
  return "line " + std::to_string(index + 3) + " is '" + std::string(line) + "', not '" +
         std::string(expected) + "'";
}

// The code point of the UTF-8 sequence at text[at], advancing `at` past it; a byte that
// starts no valid sequence is taken as the Latin-1 character it would be.
unsigned next_code_point(std::string_view text, std::size_t& at) {
  const auto lead = static_cast<unsigned char>(text[at]);
  const std::size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
  if (length == 1 || at + length > text.size()) return static_cast<unsigned char>(text[at++]);
  unsigned code = lead & (0x3FU >> (length - 1));
  for (std::size_t i = 1; i < length; ++i) {
    const auto next = static_cast<unsigned char>(text[at + i]);
    if ((next & 0xC0U) != 0x80U) return static_cast<unsigned char>(text[at++]);
    code = (code << 6U) | (next & 0x3FU);
  }
  at += length;
  return code;
}

void append_unicode_escape(std::string& out, unsigned unit) {
  std::array<char, 7> code{};
  std::snprintf(code.data(), code.size(), "\\u%04X", unit & 0xFFFFU);
  out += code.data();
}

// Properties.store()'s escaping of a key (`key` true) or a value; characters outside
// printable ASCII become \uXXXX (UTF-16 units, so surrogate pairs above U+FFFF).
void append_escaped(std::string& out, std::string_view text, bool key) {
  for (std::size_t at = 0; at < text.size();) {
    const bool first = at == 0;
    const unsigned c = next_code_point(text, at);
    switch (c) {
      case ' ':
        if (key || first) out += '\\';
        out += ' ';
        break;
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\f':
        out += "\\f";
        break;
      case '=':
      case ':':
      case '#':
      case '!':
      case '\\':
        out += '\\';
        out += static_cast<char>(c);
        break;
      default:
        if (c >= 0x20 && c <= 0x7E) {
          out += static_cast<char>(c);
        } else if (c > 0xFFFF) {
          append_unicode_escape(out, 0xD800 + ((c - 0x10000) >> 10U));
          append_unicode_escape(out, 0xDC00 + ((c - 0x10000) & 0x3FFU));
        } else {
          append_unicode_escape(out, c);
        }
    }
  }
}

// Appends code point `code` as UTF-8.
void append_utf8(std::string& out, unsigned code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6U));
    out += static_cast<char>(0x80 | (code & 0x3FU));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12U));
    out += static_cast<char>(0x80 | ((code >> 6U) & 0x3FU));
    out += static_cast<char>(0x80 | (code & 0x3FU));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18U));
    out += static_cast<char>(0x80 | ((code >> 12U) & 0x3FU));
    out += static_cast<char>(0x80 | ((code >> 6U) & 0x3FU));
    out += static_cast<char>(0x80 | (code & 0x3FU));
  }
}

// The UTF-16 unit of the \uXXXX whose 'u' is text[at], or nullopt.
std::optional<unsigned> unicode_escape_at(std::string_view text, std::size_t at) {
  if (at + 4 >= text.size()) return std::nullopt;
  unsigned unit = 0;
  const char* first = text.data() + at + 1;
  const auto [end, error] = std::from_chars(first, first + 4, unit, 16);
  if (error != std::errc() || end != first + 4) return std::nullopt;
  return unit;
}

// Undoes Properties' escapes in `text` into `out`; false for a malformed \uXXXX.
bool unescape(std::string_view text, std::string& out) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\') {
      out += text[i];
      continue;
    }
    if (++i == text.size()) break;
    switch (text[i]) {
      case 't':
        out += '\t';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 'f':
        out += '\f';
        break;
      case 'u': {
        const auto unit = unicode_escape_at(text, i);
        if (!unit) return false;
        i += 4;
        unsigned code = *unit;
        if (code >= 0xD800 && code < 0xDC00 && i + 2 < text.size() && text[i + 1] == '\\' &&
            text[i + 2] == 'u') {
          const auto low = unicode_escape_at(text, i + 2);
          if (low && *low >= 0xDC00 && *low < 0xE000) {
            code = 0x10000 + ((code - 0xD800) << 10U) + (*low - 0xDC00);
            i += 6;
          }
        }
        append_utf8(out, code);
        break;
      }
      default:
        out += text[i];
    }
  }
  return true;
}

// Properties' logical lines: comment and blank lines dropped, a line ending in an odd number
// of backslashes joined with the next one (whose leading whitespace goes).
std::vector<std::string> logical_lines(std::string_view text) {
  std::vector<std::string> result;
  std::string pending;
  bool continuing = false;
  for (std::string_view line : lines_of(text)) {
    const std::size_t first = line.find_first_not_of(" \t\f");
    line = first == std::string_view::npos ? std::string_view{} : line.substr(first);
    if (!continuing && (line.empty() || line.front() == '#' || line.front() == '!')) continue;
    std::size_t backslashes = 0;
    while (backslashes < line.size() && line[line.size() - 1 - backslashes] == '\\') {
      ++backslashes;
    }
    continuing = backslashes % 2 == 1;
    if (continuing) line.remove_suffix(1);
    pending += line;
    if (!continuing) {
      result.push_back(std::move(pending));
      pending.clear();
    }
  }
  if (continuing) result.push_back(std::move(pending));
  return result;
}

}  // namespace

void write_file_atomically(const std::filesystem::path& path, std::string_view contents) {
  std::filesystem::path temporary = path;
  temporary += ".tmp";
  try {
    write_and_sync(temporary, contents);
    if (::rename(temporary.c_str(), path.c_str()) != 0) {
      throw_errno(errno, "cannot rename " + temporary.string() + " to", path);
    }
  } catch (...) {
    ::unlink(temporary.c_str());
    throw;
  }
  sync_folder(path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path());
}

std::optional<std::string> read_small_file(const std::filesystem::path& path) {
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) {
    if (errno == ENOENT) return std::nullopt;
    throw_errno(errno, "cannot open", path);
  }
  std::string contents;
  std::array<char, 8192> buffer{};
  while (true) {
    const ssize_t got = ::read(fd.get(), buffer.data(), buffer.size());
    if (got < 0) {
      if (errno == EINTR) continue;
      throw_errno(errno, "cannot read", path);
    }
    if (got == 0) break;
    contents.append(buffer.data(), static_cast<std::size_t>(got));
  }
  return contents;
}

std::string format_offset_checkpoint(std::span<const TopicPartitionOffset> entries) {
  std::string text = std::string(kVersionLine) + "\n" + std::to_string(entries.size()) + "\n";
  for (const TopicPartitionOffset& entry : entries) {
    text += entry.topic + " " + std::to_string(entry.partition) + " " +
            std::to_string(entry.offset) + "\n";
  }
  return text;
}

std::optional<std::vector<TopicPartitionOffset>> parse_offset_checkpoint(std::string_view text,
                                                                         std::string& error) {
  const auto lines = entry_lines(text, error);
  if (!lines) return std::nullopt;
  std::vector<TopicPartitionOffset> entries;
  for (std::size_t i = 0; i < lines->size(); ++i) {
    const auto fields = fields_of((*lines)[i]);
    TopicPartitionOffset entry;
    if (fields.size() != 3 || fields[0].empty() || !parse_number(fields[1], entry.partition) ||
        !parse_number(fields[2], entry.offset)) {
      error = malformed(i, (*lines)[i], "<topic> <partition> <offset>");
      return std::nullopt;
    }
    entry.topic = std::string(fields[0]);
    entries.push_back(std::move(entry));
  }
  return entries;
}

std::string format_leader_epoch_checkpoint(std::span<const EpochStart> entries) {
  std::string text = std::string(kVersionLine) + "\n" + std::to_string(entries.size()) + "\n";
  for (const EpochStart& entry : entries) {
    text += std::to_string(entry.epoch) + " " + std::to_string(entry.start_offset) + "\n";
  }
  return text;
}

std::optional<std::vector<EpochStart>> parse_leader_epoch_checkpoint(std::string_view text,
                                                                     std::string& error) {
  const auto lines = entry_lines(text, error);
  if (!lines) return std::nullopt;
  std::vector<EpochStart> entries;
  for (std::size_t i = 0; i < lines->size(); ++i) {
    const auto fields = fields_of((*lines)[i]);
    EpochStart entry;
    if (fields.size() != 2 || !parse_number(fields[0], entry.epoch) ||
        !parse_number(fields[1], entry.start_offset)) {
      error = malformed(i, (*lines)[i], "<epoch> <start offset>");
      return std::nullopt;
    }
    entries.push_back(entry);
  }
  return entries;
}

std::string format_properties(std::span<const std::pair<std::string, std::string>> entries,
                              std::string_view comment) {
  std::string text = "#" + std::string(comment) + "\n";
  for (const auto& [key, value] : entries) {
    append_escaped(text, key, /*key=*/true);
    text += '=';
    append_escaped(text, value, /*key=*/false);
    text += '\n';
  }
  return text;
}

std::optional<std::vector<std::pair<std::string, std::string>>> parse_properties(
    std::string_view text, std::string& error) {
  std::vector<std::pair<std::string, std::string>> entries;
  for (const std::string& line : logical_lines(text)) {
    // The key ends at the first unescaped separator: '=', ':' or whitespace.
    std::size_t at = 0;
    while (at < line.size() && line[at] != '=' && line[at] != ':' && !is_space(line[at])) {
      at += line[at] == '\\' ? 2 : 1;
    }
    at = std::min(at, line.size());
    const std::string_view raw_key = std::string_view(line).substr(0, at);
    // Then whitespace, at most one '=' or ':', whitespace.
    while (at < line.size() && is_space(line[at])) ++at;
    if (at < line.size() && (line[at] == '=' || line[at] == ':')) ++at;
    while (at < line.size() && is_space(line[at])) ++at;
    std::pair<std::string, std::string> entry;
    if (!unescape(raw_key, entry.first) ||
        !unescape(std::string_view(line).substr(at), entry.second)) {
      error = "a malformed \\uXXXX escape in '" + line + "'";
      return std::nullopt;
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

std::string format_uuid(const protocol::Uuid& id) {
  std::string out;
  std::uint32_t bits = 0;
  unsigned bit_count = 0;
  for (const std::uint8_t byte : id) {
    bits = (bits << 8U) | byte;
    bit_count += 8;
    while (bit_count >= 6) {
      bit_count -= 6;
      out.push_back(kBase64Url[(bits >> bit_count) & 0x3FU]);
    }
  }
  if (bit_count > 0) out.push_back(kBase64Url[(bits << (6 - bit_count)) & 0x3FU]);
  return out;
}

std::optional<protocol::Uuid> parse_uuid(std::string_view text) {
  if (text.size() != kUuidTextLength) return std::nullopt;
  protocol::Uuid id{};
  std::uint32_t bits = 0;
  unsigned bit_count = 0;
  std::size_t at = 0;
  for (const char c : text) {
    const std::size_t value = kBase64Url.find(c);
    if (value == std::string_view::npos) return std::nullopt;
    bits = (bits << 6U) | static_cast<std::uint32_t>(value);
    bit_count += 6;
    if (bit_count >= 8 && at < id.size()) {
      bit_count -= 8;
      id[at++] = static_cast<std::uint8_t>(bits >> bit_count);
    }
  }
  return id;
}

std::string format_partition_metadata(const protocol::Uuid& topic_id) {
  return "version: 0\ntopic_id: " + format_uuid(topic_id) + "\n";
}

std::optional<protocol::Uuid> parse_partition_metadata(std::string_view text, std::string& error) {
  const auto lines = lines_of(text);
  // "<key>:<whitespace><value>", as Kafka splits these lines (at ":\s+").
  const auto value_of = [&](std::size_t index,
                            std::string_view key) -> std::optional<std::string_view> {
    if (index >= lines.size()) return std::nullopt;
    const std::string_view line = lines[index];
    if (!line.starts_with(key) || line.size() <= key.size() + 1 || line[key.size()] != ':' ||
        !is_space(line[key.size() + 1])) {
      return std::nullopt;
    }
    std::string_view value = line.substr(key.size() + 1);
    value.remove_prefix(std::min(value.find_first_not_of(" \t\f"), value.size()));
    return value;
  };
  const auto version_text = value_of(0, "version");
  std::int32_t version = 0;
  if (!version_text || !parse_number(*version_text, version) || version < 0) {
    error = "line 1 is not 'version: 0'";
    return std::nullopt;
  }
  const auto id_text = value_of(1, "topic_id");
  const auto id = id_text ? parse_uuid(*id_text) : std::nullopt;
  if (!id) {
    error = "line 2 is not 'topic_id: <22 base64url characters>'";
    return std::nullopt;
  }
  if (*id == protocol::Uuid{}) {
    error = "the topic id is the zero Uuid";
    return std::nullopt;
  }
  return id;
}

}  // namespace kgroups::broker
