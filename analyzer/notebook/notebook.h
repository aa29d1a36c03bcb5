#pragma once
// A Jupyter notebook (nbformat 4) as sealint reads it: its code cells concatenated into one
// Python source, in cell order, because a notebook runs every cell in one namespace (a list made
// in one cell grows in another cell's loop). Each cell knows where it sits in that source, so a
// finding can be given back as a cell and a line in it, and fixes can be written back into the
// cells of the same JSON document.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzer/core/diagnostic.h"
#include "analyzer/core/result.h"

namespace sealint::notebook {

// `.ipynb`, as Jupyter names them.
[[nodiscard]] bool is_notebook_path(std::string_view path);

// A code cell that is analysed.
struct CodeCell {
  uint32_t number = 0;      // 1-based among all the notebook's cells, markdown ones too (ruff's)
  uint32_t begin = 0;       // its first byte in Notebook::code()
  uint32_t first_line = 1;  // its first line in Notebook::code()
  std::string source;       // as the notebook has it (its escapes not neutralised)
};

// What `--fix` does to one cell, for `--diff`.
struct CellChange {
  uint32_t number = 0;
  std::string before;
  std::string after;
};

struct Rewrite {
  std::string bytes;                // the whole notebook, in its own JSON layout
  std::vector<CellChange> changes;  // in cell order
};

class Notebook {
 public:
  // Fails, naming `path`, on what is not an nbformat 4 notebook: invalid JSON, no `cells` list,
  // `nbformat` below 4, a code cell without a string (or list of strings) source.
  [[nodiscard]] static Result<Notebook> parse(std::string_view path, std::string_view bytes);

  // Why the notebook is not analysed: its kernel runs another language. nullopt for Python (and
  // for a notebook that names no language, as Jupyter's own default is Python).
  [[nodiscard]] const std::optional<std::string>& not_python() const { return not_python_; }

  // The code cells, IPython escapes neutralised, each ended with a newline: what is parsed.
  [[nodiscard]] const std::string& code() const { return code_; }
  [[nodiscard]] const std::vector<CodeCell>& cells() const { return cells_; }
  // The cell a byte offset of code() lies in; an offset at the very end is the last cell's.
  // Null when no cell is analysed.
  [[nodiscard]] const CodeCell* cell_at(uint32_t offset) const;
  // Line `line` (1-based) of cell `number` as written, without its line end; empty when absent.
  [[nodiscard]] std::string_view cell_line(uint32_t number, uint32_t line) const;
  // A fix may change this range: it lies in one cell's source and on no line an escape was
  // neutralised on.
  [[nodiscard]] bool editable(ByteRange range) const;

  // The notebook with `edits` (ranges into code(), each editable(), none overlapping) applied to
  // its cells' sources; everything else in the document is kept, in its key order and indentation.
  [[nodiscard]] Result<Rewrite> rewrite(std::span<const Edit* const> edits) const;

 private:
  Notebook() = default;

  nlohmann::ordered_json document_;
  std::optional<std::string> not_python_;
  std::string code_;
  std::string written_;  // code() before the escapes were neutralised
  std::vector<CodeCell> cells_;
  int indent_ = 1;  // Jupyter writes one space; -1: all on one line
  char indent_char_ = ' ';
  bool final_newline_ = true;
  bool bom_ = false;
  bool crlf_ = false;  // the JSON's lines end with "\r\n" (a notebook saved on Windows)
};

}  // namespace sealint::notebook
