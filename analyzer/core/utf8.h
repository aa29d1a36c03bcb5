#pragma once
// UTF-8 validation and column arithmetic for SourceFile.
#include <cstdint>
#include <optional>
#include <string_view>

namespace sealint::utf8 {

// The byte order mark some editors put first in a UTF-8 file: not part of the code.
inline constexpr std::string_view kBom = "\xEF\xBB\xBF";

// Offset of the first byte that does not start a well-formed UTF-8 sequence (overlong forms,
// surrogates and values past U+10FFFF included), or nullopt when `text` is valid.
[[nodiscard]] std::optional<size_t> first_invalid(std::string_view text);

struct Columns {
  uint32_t code_points = 0;
  uint32_t utf16_units = 0;
};

// Code points and UTF-16 code units in `text`, which must be valid UTF-8 (a partial trailing
// sequence counts as one code point).
[[nodiscard]] Columns count(std::string_view text);

}  // namespace sealint::utf8
