// SPDX-License-Identifier: Apache-2.0
//
// TextTable: the CLI's human output, a table with a header row and columns padded to their
// widest cell, two spaces apart, as kafka-consumer-groups.sh prints them. Cells are plain
// text; an empty optional value is shown as "-". Value type; not thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kgroups::cli {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> headers);

  // Appends a row; a row shorter than the header leaves its last cells empty, a longer one
  // is cut to the header's width.
  void add_row(std::vector<std::string> cells);

  [[nodiscard]] bool empty() const { return rows_.empty(); }

  // The header, then every row, each line padded column by column and ending in '\n'; no
  // trailing spaces.
  [[nodiscard]] std::string render() const;

 private:
  std::vector<std::string> headers_;
  std::vector<std::vector<std::string>> rows_;
};

// The cell for an optional number: the number, or "-" when there is none.
std::string cell(const std::optional<std::int64_t>& value);

}  // namespace kgroups::cli
