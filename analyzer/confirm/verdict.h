#pragma once
// Turns the probe's result (docs/confirm.md, "Result") into a verdict per finding.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzer/core/diagnostic.h"
#include "analyzer/core/result.h"

namespace sealint::confirm {

// How the run ended, in words for the verdicts that depend on it ("the script raised
// ValueError at train.py:31", "the run timed out after 300 s").
struct RunEnd {
  std::string summary;
  bool timed_out = false;
  bool stopped = false;  // the probe stopped it after --steps: every loop ran its iterations
};

// Checks the result's format and version; the error says what is wrong.
[[nodiscard]] Result<RunEnd> check_result(const nlohmann::json& result, bool timed_out,
                                          int timeout_seconds);

// Sets `confirmation` on each of `findings` (the plan's ids are their indices).
void judge(std::vector<Diagnostic>& findings, const nlohmann::json& result, const RunEnd& end);

// The verdict on a loop no finding is in (plan id `id`): confirmed only when an autograd graph or
// tensor memory grows, since a list of numbers growing by one per step is no leak.
[[nodiscard]] Confirmation judge_watched(const WatchedLoop& loop, size_t id,
                                         const nlohmann::json& result, const RunEnd& end);

}  // namespace sealint::confirm
