#include "analyzer/core/source_file.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "analyzer/core/utf8.h"

namespace sealint {

namespace {}

Result<SourceFile> SourceFile::from_bytes(std::string path, std::string bytes) {
  if (bytes.size() >= std::numeric_limits<uint32_t>::max()) {
    return make_error(fmt::format("'{}' is too large to analyse ({} bytes)", path, bytes.size()));
  }
  if (std::memchr(bytes.data(), '\0', bytes.size()) != nullptr) {
    return make_error(fmt::format("'{}' is a binary file (it contains NUL bytes)", path));
  }
  const size_t bom = std::string_view(bytes).starts_with(utf8::kBom) ? utf8::kBom.size() : 0;
  if (auto bad = utf8::first_invalid(std::string_view(bytes).substr(bom))) {
    const size_t at = *bad + bom;
    const auto line =
        std::count(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(at), '\n') + 1;
    return make_error(fmt::format("'{}' is not valid UTF-8 (byte 0x{:02x} on line {})", path,
                                  static_cast<uint8_t>(bytes[at]), line));
  }
  return SourceFile(std::move(path), std::move(bytes), bom);
}

SourceFile::SourceFile(std::string path, std::string bytes, size_t bom_size)
    : path_(std::move(path)), bytes_(std::move(bytes)), bom_size_(bom_size) {
  const std::string_view text = code();
  line_starts_.push_back(0);
  // Python ends a line at \n, \r\n, or a lone \r (old Mac files).
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r') {
      if (i + 1 < text.size() && text[i + 1] == '\n') {
        uses_crlf_ = true;
        continue;
      }
      has_lone_cr_ = true;
    } else if (text[i] != '\n') {
      continue;
    }
    line_starts_.push_back(static_cast<uint32_t>(i + 1));
  }
}

Position SourceFile::position(uint32_t offset) const {
  const std::string_view text = code();
  offset = std::min(offset, static_cast<uint32_t>(text.size()));
  const auto next = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  const auto line = static_cast<uint32_t>(next - line_starts_.begin());
  const uint32_t start = line_starts_[line - 1];
  const auto columns = utf8::count(text.substr(start, offset - start));
  return Position{line, columns.code_points + 1, columns.utf16_units + 1, offset};
}

Span SourceFile::span(ByteRange range) const {
  return Span{position(range.begin), position(range.end)};
}

uint32_t SourceFile::line_start(uint32_t line) const {
  line = std::clamp(line, 1U, line_count());
  return line_starts_[line - 1];
}

std::string_view SourceFile::line_text(uint32_t line) const {
  const std::string_view text = code();
  if (line < 1 || line > line_count()) return {};
  const uint32_t start = line_starts_[line - 1];
  uint32_t end = line < line_count() ? line_starts_[line] : static_cast<uint32_t>(text.size());
  while (end > start && (text[end - 1] == '\n' || text[end - 1] == '\r')) --end;
  return text.substr(start, end - start);
}

}  // namespace sealint
