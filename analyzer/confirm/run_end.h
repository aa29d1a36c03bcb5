#pragma once
// How a probe run ended, read from its result (docs/confirm.md, "Result"): the words verdicts
// use ("the script raised ValueError: ... (line 31)"), and what the exit status depends on.
#include <string>

#include <nlohmann/json.hpp>

#include "analyzer/core/result.h"

namespace sealint::confirm {

struct RunEnd {
  std::string summary;
  bool timed_out = false;
  bool stopped = false;  // the probe stopped it after --steps: every loop ran its iterations
  // The script raised: "ValueError: bad shape (train.py, line 31)", empty otherwise.
  std::string crash = {};
  // The crash is autograd's "modified by an inplace operation": a graph kept across iterations
  // (SL005's pattern) was changed before a backward went through it.
  bool inplace_after_kept_graph = false;
};

// Checks the result's format and version; the error says what is wrong.
[[nodiscard]] Result<RunEnd> check_result(const nlohmann::json& result, bool timed_out,
                                          int timeout_seconds);

// The script raised, or called sys.exit with a status other than 0: its own output says why.
[[nodiscard]] bool ended_badly(const nlohmann::json& result);

// The plan had loops to measure and none of them finished an iteration: a script that failed
// before its loops (missing data, a failed download) measured nothing, whatever it printed.
[[nodiscard]] bool measured_nothing(const nlohmann::json& result);

}  // namespace sealint::confirm
