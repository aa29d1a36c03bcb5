#include "analyzer/python/top_level_pieces.h"

#include <array>
#include <limits>

namespace sealint::python {

namespace {

bool identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

// The line continues the compound statement before it: `else:`, `elif x:`, `except E:`,
// `finally:` at column 0 belong to the `if`, `for`, `while` or `try` above.
bool continues_compound(std::string_view line) {
  static constexpr std::array<std::string_view, 4> kClauses = {"else", "elif", "except", "finally"};
  for (const std::string_view clause : kClauses) {
    if (line.starts_with(clause) &&
        (line.size() == clause.size() || !identifier_char(line[clause.size()])))
      return true;
  }
  return false;
}

// A line ending at `i` (a `\n`, or the `\r` of `\r\n`): the offset after it, or npos.
size_t after_line_end(std::string_view code, size_t i) {
  if (i < code.size() && code[i] == '\n') return i + 1;
  if (i + 1 < code.size() && code[i] == '\r' && code[i + 1] == '\n') return i + 2;
  return std::string_view::npos;
}

// Reads the string literal whose quote is at `i`; returns the offset after it. An unterminated
// single-quoted string ends before its line's end (Python: a syntax error), which the caller
// then reads as a new line. Counts the lines it crosses in `row`.
size_t skip_string(std::string_view code, size_t i, uint32_t& row) {
  const char quote = code[i];
  auto tripled_at = [&](size_t at) {
    return at + 2 < code.size() && code[at] == quote && code[at + 1] == quote &&
           code[at + 2] == quote;
  };
  const bool triple = tripled_at(i);
  i += triple ? 3 : 1;
  while (i < code.size()) {
    const char c = code[i];
    if (c == '\\') {
      // An escaped character, or a line joined inside the string.
      if (const size_t next = after_line_end(code, i + 1); next != std::string_view::npos) {
        ++row;
        i = next;
      } else {
        i += 2;
      }
    } else if (c == '\n') {
      if (!triple) return i;
      ++row;
      ++i;
    } else if (c == quote && (!triple || tripled_at(i))) {
      return i + (triple ? 3 : 1);
    } else {
      ++i;
    }
  }
  return code.size();
}

}  // namespace

std::vector<Piece> top_level_pieces(std::string_view code, size_t target_bytes) {
  const auto size = static_cast<uint32_t>(code.size());
  if (code.size() <= target_bytes || code.size() > std::numeric_limits<uint32_t>::max())
    return {Piece{0, size, 0}};
  std::vector<Piece> pieces;
  Piece current;
  int depth = 0;                 // open brackets
  bool continued = false;        // the line before ended with a `\` outside a string
  bool after_decorator = false;  // the last top-level statement line began with `@`
  bool line_start = true;
  uint32_t row = 0;
  size_t i = 0;
  while (i < code.size()) {
    if (line_start) {
      line_start = false;
      const char first = code[i];
      const bool statement = depth == 0 && !continued && first != ' ' && first != '\t' &&
                             first != '\f' && first != '\r' && first != '\n' && first != '#' &&
                             first != ')' && first != ']' && first != '}';
      if (statement) {
        if (!after_decorator && !continues_compound(code.substr(i)) &&
            i - current.begin >= target_bytes) {
          current.end = static_cast<uint32_t>(i);
          pieces.push_back(current);
          current = {static_cast<uint32_t>(i), 0, row};
        }
        after_decorator = first == '@';
      }
      continued = false;
    }
    const char c = code[i];
    if (c == '\n') {
      ++row;
      line_start = true;
      ++i;
    } else if (c == '#') {
      while (i < code.size() && code[i] != '\n') ++i;
    } else if (c == '\\') {
      if (const size_t next = after_line_end(code, i + 1); next != std::string_view::npos) {
        continued = true;
        line_start = true;
        ++row;
        i = next;
      } else {
        ++i;
      }
    } else if (c == '\'' || c == '"') {
      i = skip_string(code, i, row);
    } else {
      if (c == '(' || c == '[' || c == '{') ++depth;
      if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
      ++i;
    }
  }
  current.end = size;
  pieces.push_back(current);
  return pieces;
}

}  // namespace sealint::python
