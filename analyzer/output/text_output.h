#pragma once
// Compiler-style text: `path:line:col: severity[SLxxx]: message`, the source line with a caret
// underline, related notes, `= help:`, and a summary line.
#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/diagnostic.h"
#include "analyzer/output/statistics.h"

namespace sealint::output {

struct TextOptions {
  bool color = false;
  // `--unsafe-fixes`: a finding whose fix is unsafe is marked fixable too.
  bool unsafe_fixes = false;
};

// Returns the source line text at `at`'s line (of its cell, in a notebook); empty when unknown.
using LineLookup = std::function<std::string(std::string_view path, const Position& at)>;

// `4:5`, or `cell 3:4:5` in a notebook (ruff's shape): what follows `path:` in the text output.
[[nodiscard]] std::string position_text(const Position& at);

// A finding `--fix` would fix (with --unsafe-fixes, an unsafe fix too) gets ruff's `[*]` mark at
// the start of its message.
void write_text(std::ostream& out, const std::vector<Diagnostic>& diagnostics,
                const LineLookup& lines, const TextOptions& options);

// After `--fix`: "Fixed 2 findings." and, with `--show-fixes`, what they were, per file and rule
// ("- train.py:" then "    2 × SL001 (grad-accumulation)"). Nothing when nothing was fixed.
void write_fixed(std::ostream& out, const std::vector<Diagnostic>& fixed, bool show_fixes);

// `--statistics`: one line per rule, most findings first: count, id, name, how many `--fix`
// fixes ("[*] 3 fixable"; "[ ] 1 fixable with `--unsafe-fixes`" when only unsafe fixes exist),
// and how many were left out of test functions.
void write_statistics(std::ostream& out, const StatisticsInput& input);

// "Found 2 findings (2 errors) in 4 files." / "No findings in 4 files; 1 input error (see stderr)."
// What the findings' fixes offer, as ruff says it: "2 fixable with `--fix` (1 more with
// `--unsafe-fixes`)." Empty when no finding has a fix. `fixing`: this run applied the fixes
// `--fix` allows (then only what `--unsafe-fixes` would add is left to say); `unsafe`:
// `--unsafe-fixes` was given.
[[nodiscard]] std::string fix_hint_line(const std::vector<Diagnostic>& diagnostics, bool fixing,
                                        bool unsafe);

[[nodiscard]] std::string summary_line(const std::vector<Diagnostic>& diagnostics, size_t files,
                                       const std::vector<InputError>& errors,
                                       size_t suppressed = 0);

// What was left out in test code: "Left out 3 findings (SL001, SL006) in 2 test functions: tests
// run a few iterations; `--analyse-tests` reports them." Empty when nothing was.
[[nodiscard]] std::string left_out_tests_line(const std::vector<LeftOutTest>& left_out);

// One line per input error, for stderr: `path:line:col: error: message` or `sealint: error:
// message`.
void write_input_errors(std::ostream& out, const std::vector<InputError>& errors,
                        const TextOptions& options);

}  // namespace sealint::output
