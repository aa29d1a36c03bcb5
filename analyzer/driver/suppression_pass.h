#pragma once
// The driver's last pass over a file's findings: which of them an inline comment silences
// (core/suppressions.h), the warnings a comment earns (an unknown id, an unmatched NOLINTBEGIN or
// NOLINTEND), and, when SL012 is on, a finding for each suppression that silences nothing. It
// runs after every rule, since a suppression is unused only once every finding is known (ruff's
// RUF100 runs last for the same reason).
#include <string_view>
#include <vector>

#include "analyzer/core/diagnostic.h"
#include "analyzer/core/rule_info.h"
#include "analyzer/ir/ir.h"
#include "rules/registry.h"

namespace sealint {

struct UnusedSuppressionCheck {
  const RuleInfo* rule = nullptr;  // SL012's; nullptr: the check is off for this file
  // The rules that ran on the file: a suppression of a rule that did not run (not selected, or
  // not for this language) is not called unused, since the run could not know.
  std::vector<std::string_view> rules_run;
  // Every rule for the file's language ran: only then is a bare `# sealint: ignore` judged.
  bool every_rule_ran = false;
};

void apply_suppressions(const ir::Module& module, const rules::RuleRegistry& registry,
                        const UnusedSuppressionCheck& unused, std::vector<Diagnostic>& diagnostics,
                        std::vector<InputError>& errors);

}  // namespace sealint
