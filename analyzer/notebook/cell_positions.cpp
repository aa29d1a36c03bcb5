#include "analyzer/notebook/cell_positions.h"

#include <algorithm>

namespace sealint::notebook {

Position cell_position(const Notebook& notebook, const Position& at) {
  const CodeCell* cell = notebook.cell_at(at.offset);
  if (cell == nullptr) return at;
  Position out = at;
  out.cell = cell->number;
  out.line = at.line >= cell->first_line ? at.line - cell->first_line + 1 : 1;
  out.offset = at.offset >= cell->begin ? at.offset - cell->begin : 0;
  return out;
}

void point_at_cells(const Notebook& notebook, std::vector<Diagnostic>& diagnostics,
                    std::vector<InputError>& errors) {
  auto map = [&](Span& span) {
    span.begin = cell_position(notebook, span.begin);
    span.end = cell_position(notebook, span.end);
  };
  for (Diagnostic& d : diagnostics) {
    map(d.span);
    for (RelatedLocation& related : d.related) map(related.span);
    if (!d.fix) continue;
    const bool fits = std::all_of(d.fix->edits.begin(), d.fix->edits.end(), [&](const Edit& e) {
      return notebook.editable(e.range) &&
             notebook.cell_at(e.range.begin) == notebook.cell_at(d.fix->edits.front().range.begin);
    });
    if (!fits) {
      d.fix.reset();
      continue;
    }
    for (Edit& edit : d.fix->edits) map(edit.span);
  }
  for (InputError& error : errors) {
    if (error.at) *error.at = cell_position(notebook, *error.at);
  }
}

}  // namespace sealint::notebook
