#pragma once
// A notebook is analysed as one concatenated source; what the analysis reports is given back as
// the cell (Position::cell) and the line and column in it, which is what a user sees in Jupyter.
#include <vector>

#include "analyzer/core/diagnostic.h"
#include "analyzer/notebook/notebook.h"

namespace sealint::notebook {

// `at` (a position in notebook.code()) as a position in its cell: the cell's number, the line in
// the cell, the same columns (neutralising moves none), and the byte offset in the cell's source.
[[nodiscard]] Position cell_position(const Notebook& notebook, const Position& at);

// Every position of the findings and input errors, the related locations' and the fixes' too.
// A fix that could not be written back into one cell (it crosses cells, or touches a line whose
// IPython escape was neutralised) is dropped from its finding, so that no output offers it.
void point_at_cells(const Notebook& notebook, std::vector<Diagnostic>& diagnostics,
                    std::vector<InputError>& errors);

}  // namespace sealint::notebook
