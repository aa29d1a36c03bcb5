#pragma once
// `--format github`: GitHub Actions workflow commands, one annotation per finding.
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/diagnostic.h"

namespace sealint::output {

// Workflow commands for the findings, then one for each input problem (an unreadable file, a
// syntax error), so that a pull request shows it instead of nothing.
void write_github(std::ostream& out, const std::vector<Diagnostic>& diagnostics,
                  const std::vector<InputError>& input_errors = {});

// Escaping GitHub's runner applies: in messages `%`, CR and LF; in properties also `:` and `,`.
[[nodiscard]] std::string escape_github_data(std::string_view text);
[[nodiscard]] std::string escape_github_property(std::string_view text);

}  // namespace sealint::output
