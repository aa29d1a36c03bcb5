#pragma once
// What a rule declares about itself (STYLE.md §2): one constexpr value per rule. Everything said
// about a rule elsewhere (its docs page's second line, the README table, `sealint rules`, SARIF's
// rule properties) is generated from this value (rule_metadata.h).
#include <string_view>

#include "analyzer/core/diagnostic.h"

namespace sealint {

enum class FixAvailability { None, Sometimes, Always };
// Whether applying the fix may change what the program does (`--unsafe-fixes` applies those).
enum class FixSafety { Safe, Unsafe };
// The framework whose code the rule reads: SARIF's tags, and what `sealint rules` shows.
enum class Framework { PyTorch, TensorFlow, Any };
// How often a finding is a real leak, measured on bench/corpus (SARIF's `precision` property):
// High at 0.9 or more over five or more findings, Medium at 0.6 or more or when too few findings
// were seen to say, Low below 0.6.
enum class Precision { Low, Medium, High };

struct RuleInfo {
  std::string_view id;    // "SL001"
  std::string_view name;  // "grad-accumulation": names the problem, not the fix
  Severity severity;      // default severity
  bool python;            // languages it applies to
  bool cpp;
  std::string_view summary;  // one sentence, identical to the docs page's "What it does"
  FixAvailability fix;
  FixSafety fix_safety = FixSafety::Safe;
  Framework framework = Framework::PyTorch;
  Precision precision = Precision::Medium;
  std::string_view brief;  // the README table's pattern column: a phrase, no final period
  // Off unless `select` or `extend-select` names it: a rule whose findings are too often not
  // worth a user's time to be on for everyone (its docs page says why).
  bool on_by_default = true;
  // Also reported in test code (semantic/test_code.h). A test runs a few cases and exits, so a
  // leak that grows per iteration never matters there; a layer too large to allocate does.
  bool reports_in_tests = false;
};

}  // namespace sealint
