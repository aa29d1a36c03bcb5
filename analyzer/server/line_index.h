#pragma once
// LSP positions over one document's text: a 0-based line and a character counted in the encoding
// the client and server agreed on (UTF-16 unless the client offers another). Every position the
// server sends comes from a byte offset through this, so that lines end where LSP says they do
// (\r\n, \n, or a lone \r) whatever the analysis counted.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sealint::server {

enum class PositionEncoding { Utf8, Utf16, Utf32 };

[[nodiscard]] std::string_view encoding_name(PositionEncoding encoding);

struct LspPosition {
  uint32_t line = 0;
  uint32_t character = 0;
  bool operator==(const LspPosition&) const = default;
};

class LineIndex {
 public:
  // `text` must outlive the index.
  LineIndex(std::string_view text, PositionEncoding encoding);

  // The position of a byte offset (clamped to the text's end; inside a multi-byte character, its
  // start).
  [[nodiscard]] LspPosition position(size_t offset) const;
  // The byte offset of a position (a character past the line's end is its end; a line past the
  // last is the text's end), as LSP says a client may send.
  [[nodiscard]] size_t offset(LspPosition position) const;
  // The byte offsets where a 0-based line's text starts, and ends (before its line end); the
  // text's end for a line past the last.
  [[nodiscard]] size_t line_start(uint32_t line) const;
  [[nodiscard]] size_t line_end(uint32_t line) const;
  [[nodiscard]] uint32_t line_count() const { return static_cast<uint32_t>(starts_.size()); }

 private:
  std::string_view text_;
  PositionEncoding encoding_;
  std::vector<size_t> starts_;  // byte offset of each line's start
};

}  // namespace sealint::server
