#pragma once
// SL006's older evidence: the model's output, bound to a name, carries an autograd graph on
// (nearly) every iteration (docs/confirm.md, "Graph"); used where the line itself was not seen.
#include <cstdint>

#include <nlohmann/json.hpp>

#include "analyzer/confirm/step_words.h"
#include "analyzer/core/confirmation.h"

namespace sealint::confirm {

[[nodiscard]] Confirmation judge_graph(const nlohmann::json& found, uint32_t iterations,
                                       const StepWords& steps);

}  // namespace sealint::confirm
