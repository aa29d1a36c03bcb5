#pragma once
// The verdict on a growth (SL001, SL002, SL005, SL010, and the loops no finding is in): which
// measured series of the finding's places grows steadily, and the loop's own memory beside it
// (docs/confirm.md, "Verdicts").
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "analyzer/confirm/exhaustion.h"
#include "analyzer/confirm/step_words.h"
#include "analyzer/core/confirmation.h"

namespace sealint::confirm {

// The loop's memory per iteration, when it grows steadily: on CUDA the allocator's count, on CPU
// the tensors Python can see, else the process's resident memory.
struct LoopMemory {
  double per_iteration = 0;
  std::string what;
  double last = 0;    // the last sample: where the growth has got to
  bool cuda = false;  // the allocator's count, which the GPU's size bounds
};

// Resident memory steps with the C allocator, so alone it confirms nothing in a loop no rule
// flagged (`with_process` false).
[[nodiscard]] std::optional<LoopMemory> loop_memory(const nlohmann::json* loop, bool with_process);

// `watched`: a loop no rule flagged, where only a graph or tensor memory counts as growth.
// `memory`: the loop's own growth (loop_memory), read once for the verdict and its projection.
[[nodiscard]] Confirmation judge_growth(const ProbeHint& probe, const nlohmann::json& found,
                                        const std::optional<LoopMemory>& memory,
                                        uint32_t iterations, bool watched);

// A loop no finding is in that fills a local with tensors that carry no graph (predictions kept
// for a metric: `preds.append(out.argmax(1))`) keeps what one pass produces, and the function's
// return frees it: bounded by the pass, no leak across passes. Said as such, not as a leak.
void read_collected_outputs(Confirmation& c, const ProbeHint& probe,
                            const std::optional<PassLength>& pass, const StepWords& steps);

}  // namespace sealint::confirm
