#pragma once
// `--format json`: a stable array of findings, documented in docs/output-json.md.
#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzer/core/diagnostic.h"

namespace sealint::output {

[[nodiscard]] nlohmann::json to_json(const Diagnostic& diagnostic);
void write_json(std::ostream& out, const std::vector<Diagnostic>& diagnostics);

}  // namespace sealint::output
