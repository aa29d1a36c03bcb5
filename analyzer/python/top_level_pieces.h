#pragma once
// Where a large file can be cut into pieces that tree-sitter parses one at a time. A parse tree
// costs about 50 bytes per byte of source, more than the IR made from it: holding the tree of a
// 20 MB file whole was most of its 1.6 GB peak. Cut between top-level statements, each piece
// parses to the same statements it holds in the whole file, and its tree is freed once lowered.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace sealint::python {

struct Piece {
  uint32_t begin = 0;  // byte offset of the piece's first line
  uint32_t end = 0;    // one past its last byte: the next piece's begin, or the code's size
  uint32_t row = 0;    // 0-based line of `begin` (a piece starts at column 0)
  bool operator==(const Piece&) const = default;
};

// Cuts `code` into pieces of at least `target_bytes` each (the last may be shorter), each cut at
// the start of a line that begins a new top-level statement: a line at column 0, outside any
// string, bracket or `\` continuation, that is not blank or a comment, does not continue a
// compound statement (`else`, `elif`, `except`, `finally`) and does not follow a decorator.
// The scan reads strings and brackets as Python's tokenizer does; where it could be wrong
// (invalid code), the parse of a piece holds an error and the caller parses the file whole.
// One piece when the code is no longer than `target_bytes` or has no such line.
[[nodiscard]] std::vector<Piece> top_level_pieces(std::string_view code, size_t target_bytes);

}  // namespace sealint::python
