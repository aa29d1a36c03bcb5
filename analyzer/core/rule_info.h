#pragma once
// What a rule declares about itself (STYLE.md §2): one constexpr value per rule.
#include <string_view>

#include "analyzer/core/diagnostic.h"

namespace sealint {

enum class FixAvailability { None, Sometimes, Always };

struct RuleInfo {
  std::string_view id;    // "SL001"
  std::string_view name;  // "grad-accumulation": names the problem, not the fix
  Severity severity;      // default severity
  bool python;            // languages it applies to
  bool cpp;
  std::string_view summary;  // one sentence, identical to the docs page's "What it does"
  FixAvailability fix;
};

}  // namespace sealint
