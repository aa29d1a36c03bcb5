#include "analyzer/cli/notebook_fixing.h"

#include <fmt/format.h>

#include "analyzer/core/fixes.h"
#include "analyzer/core/unified_diff.h"
#include "analyzer/notebook/notebook.h"

namespace sealint::cli {

Result<NotebookFix> fix_notebook(std::string_view path, std::string_view bytes,
                                 const std::vector<Diagnostic>& findings, bool unsafe) {
  auto parsed = notebook::Notebook::parse(path, bytes);
  if (!parsed) return make_error(parsed.error());
  // Which fixes go in (each finding's edits together, none overlapping another's) is chosen as
  // for any file; the chosen edits are then applied cell by cell.
  const AppliedFixes chosen = apply_fixes(parsed->code(), findings, unsafe);
  NotebookFix out;
  if (chosen.fixed.empty()) return out;
  std::vector<const Edit*> edits;
  for (const size_t index : chosen.fixed) {
    for (const Edit& edit : findings[index].fix->edits) edits.push_back(&edit);
  }
  auto rewrite = parsed->rewrite(edits);
  if (!rewrite) return make_error(fmt::format("'{}': {}", path, rewrite.error()));
  out.fixed = chosen.fixed;
  out.bytes = std::move(rewrite->bytes);
  for (const notebook::CellChange& change : rewrite->changes)
    out.diff +=
        unified_diff(fmt::format("{}:cell {}", path, change.number), change.before, change.after);
  return out;
}

}  // namespace sealint::cli
