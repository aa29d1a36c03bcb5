#pragma once
// `--fix` and `--diff` on a notebook: the fixes go into the sources of its cells, and the notebook
// is written back whole, its other content, key order and indentation kept.
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/diagnostic.h"
#include "analyzer/core/result.h"

namespace sealint::cli {

struct NotebookFix {
  std::vector<size_t> fixed;  // indices into the findings given
  std::string bytes;          // the notebook after the fixes (empty when none applies)
  std::string diff;           // one unified diff per changed cell, headed `path:cell N`
};

// `bytes` are the notebook's as analysed; the findings' edits are offsets into its code cells
// concatenated (notebook::Notebook::code()).
[[nodiscard]] Result<NotebookFix> fix_notebook(std::string_view path, std::string_view bytes,
                                               const std::vector<Diagnostic>& findings,
                                               bool unsafe);

}  // namespace sealint::cli
