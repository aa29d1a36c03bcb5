// libFuzzer target: any bytes as a Jupyter notebook, through what lint mode does with one: the
// nbformat checks, the escapes neutralised, the cells analysed with every rule, the positions
// mapped to cells, every output writer, and the fixes written back into the notebook's JSON.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "analyzer/core/fixes.h"
#include "analyzer/driver/driver.h"
#include "analyzer/notebook/notebook.h"
#include "analyzer/output/github_output.h"
#include "analyzer/output/json_output.h"
#include "analyzer/output/sarif_output.h"
#include "analyzer/output/text_output.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sealint;
  const fuzz::Lint& lint = fuzz::Lint::get();
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  DriverOptions options;
  options.jobs = 1;
  const RunResult result = lint.driver().run({FileInput{"fuzz.ipynb", bytes}}, options);

  auto notebook = notebook::Notebook::parse("fuzz.ipynb", bytes);
  // The driver reads what the notebook model reads: a notebook it rejects has no findings.
  if (!notebook && !result.diagnostics.empty()) __builtin_trap();
  const output::LineLookup lines = [&](std::string_view, const Position& at) {
    return notebook ? std::string(notebook->cell_line(at.cell, at.line)) : std::string();
  };
  std::ostringstream out;
  output::write_text(out, result.diagnostics, lines, {.color = true});
  output::write_input_errors(out, result.errors, {});
  output::write_json(out, result.diagnostics, result.errors);
  output::write_github(out, result.diagnostics, result.errors);
  output::SarifOptions sarif;
  sarif.input_errors = result.errors;
  output::write_sarif(out, result.diagnostics, lint.sarif_rules(), lines, sarif);
  if (!notebook) return 0;

  // Every fix the driver kept fits in one cell, so the rewrite succeeds and is a notebook again,
  // with the same cells (and the same code when nothing was fixed).
  for (const Diagnostic& d : result.diagnostics) {
    if (!d.fix) continue;
    for (const Edit& edit : d.fix->edits) {
      if (!notebook->editable(edit.range)) __builtin_trap();
    }
  }
  const AppliedFixes chosen = apply_fixes(notebook->code(), result.diagnostics, true);
  std::vector<const Edit*> edits;
  for (const size_t index : chosen.fixed) {
    for (const Edit& edit : result.diagnostics[index].fix->edits) edits.push_back(&edit);
  }
  auto rewrite = notebook->rewrite(edits);
  if (!rewrite) __builtin_trap();
  auto again = notebook::Notebook::parse("fuzz.ipynb", rewrite->bytes);
  if (!again || again->cells().size() != notebook->cells().size()) __builtin_trap();
  if (edits.empty() && again->code() != notebook->code()) __builtin_trap();
  return 0;
}
