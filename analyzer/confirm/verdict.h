#pragma once
// Turns the probe's result (docs/confirm.md, "Result") into a verdict per finding.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzer/confirm/run_end.h"
#include "analyzer/core/diagnostic.h"
#include "analyzer/core/result.h"

namespace sealint::confirm {

// Sets `confirmation` on each of `findings` (the plan's ids are their indices). `device_memory`
// (--device-memory) bounds the memory a confirmed growth is projected against; without it, the
// GPU's size the probe read bounds CUDA growth.
void judge(std::vector<Diagnostic>& findings, const nlohmann::json& result, const RunEnd& end,
           std::optional<uint64_t> device_memory = std::nullopt);

// The verdict on a loop no finding is in (plan id `id`): confirmed only when an autograd graph or
// tensor memory grows, since a list of numbers growing by one per step is no leak.
[[nodiscard]] Confirmation judge_watched(const WatchedLoop& loop, size_t id,
                                         const nlohmann::json& result, const RunEnd& end,
                                         std::optional<uint64_t> device_memory = std::nullopt);

// Whether plan entry `id`'s loop ran another measured loop inside its iterations (an epoch loop
// around `train()`): a watched loop like that adds nothing to the inner loop's verdict.
[[nodiscard]] bool encloses_measured_loop(const nlohmann::json& result, size_t id);

// The ids of the plan entries whose region is a function called inside an iteration of plan
// entry `id`'s loop (the training loop that calls a flagged `forward()`): what that loop's own
// growth is made of.
[[nodiscard]] std::vector<size_t> entries_called_inside(const nlohmann::json& result, size_t id);

}  // namespace sealint::confirm
