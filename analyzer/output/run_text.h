#pragma once
// The text format of a whole run: lint's findings, fixes and summary line; confirm's findings,
// the loops it measured without a finding, and its closing line.
#include <ostream>

#include "analyzer/output/reports.h"

namespace sealint::output {

void write_lint_text(std::ostream& out, const LintReport& report);

void write_confirm_text(std::ostream& out, const ConfirmReport& report);

}  // namespace sealint::output
