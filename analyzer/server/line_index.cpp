#include "analyzer/server/line_index.h"

#include <algorithm>

namespace sealint::server {

namespace {

// The byte length of the UTF-8 sequence a lead byte starts (1 for a stray continuation byte, so
// that a walk always moves).
size_t sequence_length(unsigned char lead) {
  if (lead >= 0xF0) return 4;
  if (lead >= 0xE0) return 3;
  if (lead >= 0xC0) return 2;
  return 1;
}

uint32_t units(size_t length, PositionEncoding encoding) {
  switch (encoding) {
    case PositionEncoding::Utf8:
      return static_cast<uint32_t>(length);
    case PositionEncoding::Utf16:
      return length == 4 ? 2 : 1;  // a 4-byte sequence is outside the BMP: a surrogate pair
    case PositionEncoding::Utf32:
      return 1;
  }
  return 1;
}

}  // namespace

std::string_view encoding_name(PositionEncoding encoding) {
  switch (encoding) {
    case PositionEncoding::Utf8:
      return "utf-8";
    case PositionEncoding::Utf16:
      return "utf-16";
    case PositionEncoding::Utf32:
      return "utf-32";
  }
  return "utf-16";
}

LineIndex::LineIndex(std::string_view text, PositionEncoding encoding)
    : text_(text), encoding_(encoding) {
  starts_.push_back(0);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') {
      starts_.push_back(i + 1);
    } else if (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')) {
      starts_.push_back(i + 1);
    }
  }
}

size_t LineIndex::line_start(uint32_t line) const {
  return line < starts_.size() ? starts_[line] : text_.size();
}

size_t LineIndex::line_end(uint32_t line) const {
  if (line >= starts_.size()) return text_.size();
  size_t end = line + 1 < starts_.size() ? starts_[line + 1] : text_.size();
  while (end > starts_[line] && (text_[end - 1] == '\n' || text_[end - 1] == '\r')) --end;
  return end;
}

LspPosition LineIndex::position(size_t offset) const {
  offset = std::min(offset, text_.size());
  const auto after = std::upper_bound(starts_.begin(), starts_.end(), offset);
  const auto line = static_cast<uint32_t>(after - starts_.begin() - 1);
  uint32_t character = 0;
  for (size_t at = starts_[line]; at < offset;) {
    const size_t length = sequence_length(static_cast<unsigned char>(text_[at]));
    if (at + length > offset) break;  // inside a character: its start
    character += units(length, encoding_);
    at += length;
  }
  return {line, character};
}

size_t LineIndex::offset(LspPosition position) const {
  if (position.line >= starts_.size()) return text_.size();
  const size_t end = line_end(position.line);
  size_t at = starts_[position.line];
  uint32_t character = 0;
  while (at < end && character < position.character) {
    const size_t length = sequence_length(static_cast<unsigned char>(text_[at]));
    character += units(length, encoding_);
    at = std::min(at + length, end);
  }
  return at;
}

}  // namespace sealint::server
