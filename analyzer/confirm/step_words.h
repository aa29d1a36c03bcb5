#pragma once
// What one sample step of a measured region is called in a verdict: a loop's iteration, or a
// call of a function a framework runs per batch (a hook, `forward()`).
#include <cstdint>
#include <string>
#include <string_view>

#include "analyzer/core/confirmation.h"

namespace sealint::confirm {

struct StepWords {
  std::string_view one = "iteration";
  std::string_view many = "iterations";
  [[nodiscard]] std::string_view of(double n) const { return n == 1 ? one : many; }
};

[[nodiscard]] StepWords step_words(const ProbeHint& probe);

// "only 3 iterations ran, too few to see a trend (raise --steps, or the loop's length)".
[[nodiscard]] std::string too_few_detail(uint32_t iterations, const StepWords& steps);

}  // namespace sealint::confirm
