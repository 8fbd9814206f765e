// SPDX-License-Identifier: Apache-2.0
#include "text_table.h"

#include <algorithm>

namespace kgroups::cli {

TextTable::TextTable(std::vector<std::string> headers) : headers_(std::move(headers)) {}

void TextTable::add_row(std::vector<std::string> cells) {
  cells.resize(headers_.size());
  rows_.push_back(std::move(cells));
}

std::string TextTable::render() const {
  std::vector<std::size_t> widths(headers_.size());
  for (std::size_t column = 0; column < headers_.size(); ++column) {
    widths[column] = headers_[column].size();
    for (const auto& row : rows_) widths[column] = std::max(widths[column], row[column].size());
  }
  std::string out;
  const auto append_line = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (std::size_t column = 0; column < cells.size(); ++column) {
      if (column > 0) line += "  ";
      line += cells[column];
      if (column + 1 < cells.size()) line.append(widths[column] - cells[column].size(), ' ');
    }
    line.erase(line.find_last_not_of(' ') + 1);
    out += line + "\n";
  };
  append_line(headers_);
  for (const auto& row : rows_) append_line(row);
  return out;
}

std::string cell(const std::optional<std::int64_t>& value) {
  return value ? std::to_string(*value) : "-";
}

}  // namespace kgroups::cli
