#pragma once
// tree-sitter-python's scanner keeps each indentation width in one byte: a line indented 256 or
// more columns turns the whole enclosing statement into a syntax error at its first line, in valid
// Python (CPython reads up to 100 levels). Finding that line lets the error say why, and where.
#include <cstddef>
#include <optional>
#include <string_view>

namespace sealint::python {

inline constexpr size_t kMaxIndentColumns = 255;

// The byte offset of the first line that starts a statement indented past kMaxIndentColumns
// (tabs to the next multiple of 8, as CPython counts them), skipping blank and comment lines;
// lines inside brackets are not told apart, so callers use it only to explain an error.
[[nodiscard]] std::optional<size_t> first_line_indented_too_deep(std::string_view code);

}  // namespace sealint::python
