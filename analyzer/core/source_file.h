#pragma once
// One input file: its bytes checked once (binary, UTF-8, BOM), and the line table that turns
// byte offsets into the line/column pairs outputs print.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/diagnostic.h"
#include "analyzer/core/result.h"

namespace sealint {

class SourceFile {
 public:
  // Fails with a message for binary content (a NUL byte), invalid UTF-8 and files too large
  // for 32-bit offsets. A UTF-8 BOM is kept out of code(): offsets start after it.
  [[nodiscard]] static Result<SourceFile> from_bytes(std::string path, std::string bytes);

  std::string_view path() const { return path_; }
  // The text without its BOM; every offset in sealint is into this view.
  std::string_view code() const { return std::string_view(bytes_).substr(bom_size_); }
  bool has_bom() const { return bom_size_ != 0; }
  bool uses_crlf() const { return uses_crlf_; }
  // Some line ends with a lone \r, which tree-sitter-python does not take as a line end.
  bool has_lone_cr() const { return has_lone_cr_; }

  uint32_t line_count() const { return static_cast<uint32_t>(line_starts_.size()); }
  // Position of a byte offset (clamped to the end of code()).
  [[nodiscard]] Position position(uint32_t offset) const;
  [[nodiscard]] Span span(ByteRange range) const;
  // A 1-based line without its line terminator (\n or \r\n).
  [[nodiscard]] std::string_view line_text(uint32_t line) const;
  [[nodiscard]] uint32_t line_start(uint32_t line) const;

 private:
  SourceFile(std::string path, std::string bytes, size_t bom_size);

  std::string path_;
  std::string bytes_;
  size_t bom_size_ = 0;
  bool uses_crlf_ = false;
  bool has_lone_cr_ = false;
  std::vector<uint32_t> line_starts_;
};

}  // namespace sealint
