#pragma once
// Which charts a finding or a watched loop gets in the HTML report: each series the probe
// measured for it (its places' autograd nodes, length and tensor bytes; its loop's live tensor,
// CUDA and saved bytes), with the fit the verdict reads and, for a growth, the projection.
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzer/core/confirmation.h"
#include "analyzer/report/svg_chart.h"

namespace sealint::report {

// The charts of plan entry `id` of `result` (docs/confirm.md, "Result"), their ids starting with
// `prefix`; `verdict` gives the projection's note. Series with no measured sample are left out.
[[nodiscard]] std::vector<Chart> charts_for(const nlohmann::json& result, size_t id,
                                            const Confirmation& verdict, const std::string& prefix,
                                            std::string_view step);

}  // namespace sealint::report
