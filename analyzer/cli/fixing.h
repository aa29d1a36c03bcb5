#pragma once
// `--fix`, `--unsafe-fixes`, `--diff`: applies the findings' fixes to the files they were found in.
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "analyzer/driver/driver.h"

namespace sealint::cli {

struct FixRequest {
  bool diff = false;    // print a unified diff instead of writing
  bool unsafe = false;  // also the fixes whose docs say they may change behaviour
};

struct FixOutcome {
  std::set<size_t> fixed;          // indices into RunResult::diagnostics
  std::vector<InputError> errors;  // a file that changed since it was read, or could not be written
  bool changes = false;            // --diff: something would change
};

// stdin's content by its reported name: fixed stdin is written to `out` (as ruff does).
FixOutcome apply_fixes(const RunResult& result,
                       const std::map<std::string, std::string>& stdin_content,
                       const FixRequest& request, std::ostream& out);

}  // namespace sealint::cli
