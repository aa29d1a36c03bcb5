#pragma once
// SL006's claim read from what the probe measured at the finding's line: autograd was on when the
// line ran, and each step saved tensors for a backward (docs/confirm.md, "Graph").
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "analyzer/core/confirmation.h"

namespace sealint::confirm {

// Bytes autograd saved per step, the median over the sampled steps of the loop's
// `saved_tensor_bytes`; nullopt when the probe did not count them.
[[nodiscard]] std::optional<double> saved_bytes_per_step(const nlohmann::json* loop);

// The verdict from `grad_enabled` (the finding's) and the loop's saved bytes; nullopt when the
// line never ran while the probe watched it (the caller falls back to the output's graph).
// `one`/`many`: what a step is called ("iteration", "iterations").
[[nodiscard]] std::optional<Confirmation> judge_grad_mode(const nlohmann::json& found,
                                                          const nlohmann::json* loop,
                                                          uint32_t iterations, std::string_view one,
                                                          std::string_view many);

}  // namespace sealint::confirm
