// libFuzzer target: any bytes as a Python file, through everything lint mode does with it: UTF-8
// checks, parse, lowering, every rule (on by default or not), every output writer and the fixes.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "analyzer/core/fixes.h"
#include "analyzer/core/source_file.h"
#include "analyzer/core/utf8.h"
#include "analyzer/driver/driver.h"
#include "analyzer/output/github_output.h"
#include "analyzer/output/json_output.h"
#include "analyzer/output/sarif_output.h"
#include "analyzer/output/text_output.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sealint;
  const fuzz::Lint& lint = fuzz::Lint::get();
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  FileInput input{"fuzz.py", bytes};
  DriverOptions options;
  options.jobs = 1;
  options.watch_loops = true;  // confirm mode's extra walk
  const RunResult result = lint.driver().run({input}, options);

  auto file = SourceFile::from_bytes("fuzz.py", bytes);
  const output::LineLookup lines = [&](std::string_view, const Position& at) {
    return file ? std::string(file->line_text(at.line)) : std::string();
  };
  std::ostringstream out;
  output::write_text(out, result.diagnostics, lines, {.color = true});
  output::write_statistics(out, {result.diagnostics});
  out << output::summary_line(result.diagnostics, result.files, result.errors);
  out << output::fix_hint_line(result.diagnostics, false, true);
  output::write_input_errors(out, result.errors, {});
  output::write_json(out, result.diagnostics);
  output::write_github(out, result.diagnostics, result.errors);
  output::SarifOptions sarif;
  sarif.input_errors = result.errors;
  output::write_sarif(out, result.diagnostics, lint.sarif_rules(), lines, sarif);

  // The fixes apply to the text after a BOM, as `--fix` does.
  std::string_view code = bytes;
  if (code.starts_with(utf8::kBom)) code.remove_prefix(utf8::kBom.size());
  (void)apply_fixes(code, result.diagnostics, true);
  return 0;
}
