#pragma once
// `--statistics`: how many findings each rule made, as every format that prints it counts them.
#include <cstddef>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "analyzer/core/diagnostic.h"

namespace sealint::output {

struct SarifRule;  // analyzer/output/sarif_output.h, which includes this header's includer

struct RuleCount {
  std::string id;
  std::string name;
  size_t findings = 0;
  size_t fixable = 0;         // findings `--fix` fixes as asked (unsafe fixes with --unsafe-fixes)
  size_t unsafe_fixable = 0;  // findings only `--unsafe-fixes` would add to those
  size_t left_out = 0;        // findings left out of test functions (analyse-tests off)
};

struct StatisticsInput {
  const std::vector<Diagnostic>& diagnostics;
  bool unsafe_fixes = false;                      // --unsafe-fixes was given
  const std::vector<LeftOutTest>& left_out = {};  // test functions' findings left out
  std::span<const SarifRule> rules = {};          // names of the rules only left-out findings name
};

// One entry per rule with findings, or with findings left out, most findings first, then by id.
[[nodiscard]] std::vector<RuleCount> rule_counts(const StatisticsInput& input);

// `--statistics --format json`: an array of `{"code", "name", "count", "fixable_count",
// "unsafe_fixable_count", "left_out_count"}`, as ruff's `--statistics --output-format json`
// prints its counts (docs/output-json.md); the findings are not printed.
void write_statistics_json(std::ostream& out, const StatisticsInput& input);

}  // namespace sealint::output
