#pragma once
// IPython's own syntax in a notebook cell (`%time`, `%%capture`, `!pip install`, `x?`,
// `files = !ls`, automagic `pip install torch`) made into Python that parses, byte for byte the
// same length and only ASCII bytes replaced by ASCII bytes, so that every offset, line and column
// of the rest of the cell stays where it was.
#include <string>
#include <string_view>

namespace sealint::notebook {

struct NeutralisedCell {
  std::string code;  // exactly as long as the source
  // False for a cell magic that hands the whole cell to something else (`%%bash`, `%%writefile`,
  // `%%html`): the cell is not Python and is not analysed. `%%time`, `%%capture` and the other
  // magics that run their body as Python in the notebook's namespace keep it.
  bool python = true;
};

// Escapes are recognised only where a Python statement could start (not inside brackets, a
// string or a line continuation), so `(a\n % b)` and a `%` line of a docstring stay as they are.
[[nodiscard]] NeutralisedCell neutralise_ipython(std::string_view source);

}  // namespace sealint::notebook
