#pragma once
// Writes confirm mode's plan (docs/confirm.md, "Plan"): what the probe measures for each finding.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzer/core/diagnostic.h"

namespace sealint::confirm {

struct PlanOptions {
  std::string script;  // absolute path of the script to run
  unsigned steps = 20;
  std::optional<std::string> snapshot;  // absolute path for the CUDA memory snapshot
};

// Finding ids are indices into `findings`, then `watched` loops follow (id findings.size() + i,
// rule "loop"); each file is named by its absolute path, which the probe compares with a code
// object's co_filename.
[[nodiscard]] nlohmann::json make_plan(const std::vector<Diagnostic>& findings,
                                       const std::vector<WatchedLoop>& watched,
                                       const PlanOptions& options);

}  // namespace sealint::confirm
