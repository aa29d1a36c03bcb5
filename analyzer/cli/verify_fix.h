#pragma once
// `sealint confirm --verify-fix`: every fix the findings offer (safe and unsafe) applied to a
// temporary copy of the script, which is run again the same way; each fixed finding gets the
// verdict of its loop after the fix (`after_fix`): growth, then flat. The user's files are never
// written.
#include <vector>

#include "analyzer/cli/confirm_command.h"
#include "analyzer/core/diagnostic.h"
#include "analyzer/core/result.h"

namespace sealint::cli {

// Sets `after_fix` on the findings whose fix went in; the count of those. An error when the
// script cannot be read or the second run could not be made.
[[nodiscard]] Result<size_t> verify_fixes(const ConfirmOptions& options,
                                          std::vector<Diagnostic>& findings);

}  // namespace sealint::cli
