#pragma once
// `--format json`: a stable array of findings, documented in docs/output-json.md.
#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzer/core/diagnostic.h"

namespace sealint::output {

[[nodiscard]] nlohmann::json to_json(const Diagnostic& diagnostic);
// A confirm-mode verdict with its numbers (also SARIF's result properties).
[[nodiscard]] nlohmann::json to_json(const Confirmation& confirmation);
// "confirmed: `total` grows by 10 autograd nodes per iteration ..." for one-line outputs.
[[nodiscard]] std::string confirmation_line(const Confirmation& confirmation);
// An input problem as an element of the same array, with `rule` null (ruff's JSON does the same
// for a syntax error), so CI reviewers reading only the JSON see it.
[[nodiscard]] nlohmann::json to_json(const InputError& error);
// Findings and input problems in one array, ordered by path, line and column.
void write_json(std::ostream& out, const std::vector<Diagnostic>& diagnostics,
                const std::vector<InputError>& errors = {});

}  // namespace sealint::output
