#include "analyzer/core/utf8.h"

namespace sealint::utf8 {

namespace {

uint8_t byte_at(std::string_view text, size_t i) {
  return static_cast<uint8_t>(text[i]);
}

bool is_continuation(uint8_t byte) {
  return (byte & 0xC0U) == 0x80U;
}

// Length of the sequence a lead byte announces, 0 for a byte that cannot lead.
size_t sequence_length(uint8_t lead) {
  if (lead < 0x80U) return 1;
  if (lead >= 0xC2U && lead <= 0xDFU) return 2;
  if (lead >= 0xE0U && lead <= 0xEFU) return 3;
  if (lead >= 0xF0U && lead <= 0xF4U) return 4;
  return 0;
}

}  // namespace

std::optional<size_t> first_invalid(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    const uint8_t lead = byte_at(text, i);
    if (lead < 0x80U) {
      ++i;
      continue;
    }
    const size_t length = sequence_length(lead);
    if (length == 0 || i + length > text.size()) return i;
    for (size_t k = 1; k < length; ++k) {
      if (!is_continuation(byte_at(text, i + k))) return i;
    }
    const uint8_t second = byte_at(text, i + 1);
    // Overlong three- and four-byte forms, UTF-16 surrogates, and values past U+10FFFF.
    if (lead == 0xE0U && second < 0xA0U) return i;
    if (lead == 0xEDU && second >= 0xA0U) return i;
    if (lead == 0xF0U && second < 0x90U) return i;
    if (lead == 0xF4U && second >= 0x90U) return i;
    i += length;
  }
  return std::nullopt;
}

Columns count(std::string_view text) {
  Columns columns;
  for (size_t i = 0; i < text.size(); ++i) {
    const uint8_t byte = byte_at(text, i);
    if (is_continuation(byte)) continue;
    ++columns.code_points;
    columns.utf16_units += byte >= 0xF0U ? 2U : 1U;
  }
  return columns;
}

}  // namespace sealint::utf8
