#pragma once
// Reads a per-iteration series the way confirm mode's verdicts need: a least-squares slope and
// its fit after the warm-up, and whether the growth is steady rather than a one-off step.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace sealint::confirm {

struct Trend {
  double slope = 0;            // per iteration, least squares over the samples after the warm-up
  double r_squared = 0;        // 1 for a perfect line; a flat series has 0
  double rising = 0;           // fraction of consecutive steps that went up
  size_t samples = 0;          // samples the fit used
  bool steady = false;         // growth the verdict accepts (see trend.cpp)
  std::vector<double> values;  // the samples the fit used, in order
  // The fitted line, for drawing it: its value at series index `first` (the first sample after
  // the warm-up) is `intercept`, and it rises by `slope` per later sample used.
  size_t first = 0;
  double intercept = 0;
};

// Fewest samples after the warm-up for a verdict of growth: fewer iterations say nothing.
inline constexpr size_t kMinTrendSamples = 4;
// Fewest iterations that can give that many: their samples (one more than the iterations, the
// entry included) less the warm-up of at least two.
inline constexpr size_t kMinWarmUp = 2;
inline constexpr uint32_t kMinTrendIterations = kMinTrendSamples + kMinWarmUp - 1;

// `series[k]` is the value after k iterations (null: unbound or unreadable). The first samples
// are warm-up (the state before the first iteration, the optimizer's first step, the allocator
// filling its cache) and are left out of the fit.
[[nodiscard]] Trend read_trend(const std::vector<std::optional<double>>& series);

// Whether a steady trend grows alike in each third of its samples: each third's own slope
// positive and within a factor of three of the whole fit's. The process's resident memory grows
// by the C allocator's jumps (two 40 MiB arenas over 20 iterations read as a steady +6 MiB per
// iteration); a figure drawn from a few jumps is not a rate, and is not cited.
[[nodiscard]] bool steady_in_each_third(const Trend& trend);

}  // namespace sealint::confirm
