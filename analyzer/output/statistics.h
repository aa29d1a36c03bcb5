#pragma once
// `--statistics`: how many findings each rule made, as every format that prints it counts them.
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "analyzer/core/diagnostic.h"

namespace sealint::output {

struct RuleCount {
  std::string id;
  std::string name;
  size_t findings = 0;
  size_t fixable = 0;  // findings with a fix
};

// One entry per rule with findings, most findings first, then by id.
[[nodiscard]] std::vector<RuleCount> rule_counts(const std::vector<Diagnostic>& diagnostics);

// `--statistics --format json`: an array of `{"code", "name", "count", "fixable_count"}`, as
// ruff's `--statistics --output-format json` prints its counts; the findings are not printed.
void write_statistics_json(std::ostream& out, const std::vector<Diagnostic>& diagnostics);

}  // namespace sealint::output
