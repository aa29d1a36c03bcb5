#include "analyzer/output/sparkline.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

namespace sealint::output {

std::string sparkline(const std::vector<double>& values, size_t width) {
  static constexpr std::array<std::string_view, 8> kBlocks{"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
  if (values.empty() || width == 0) return {};
  std::vector<double> shown;
  if (values.size() <= width) {
    shown = values;
  } else if (width == 1) {
    shown.push_back(values.back());
  } else {
    for (size_t i = 0; i < width; ++i)
      shown.push_back(values[i * (values.size() - 1) / (width - 1)]);
  }
  const auto [low, high] = std::minmax_element(shown.begin(), shown.end());
  std::string out;
  for (double v : shown) {
    // Halves, so that a span of ±1e308 does not overflow to infinity (then inf/inf is NaN, and a
    // NaN converted to an integer is undefined). A flat series, or a level that is still not a
    // number (a NaN or infinite input), sits on the lowest block.
    const double span = *high / 2 - *low / 2;
    const double level = span > 0 ? (v / 2 - *low / 2) / span : 0;
    const double clamped = std::isfinite(level) ? std::clamp(level, 0.0, 1.0) : 0.0;
    out += kBlocks[static_cast<size_t>(clamped * 7 + 0.5)];
  }
  return out;
}

}  // namespace sealint::output
