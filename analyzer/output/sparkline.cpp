#include "analyzer/output/sparkline.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace sealint::output {

std::string sparkline(const std::vector<double>& values, size_t width) {
  static constexpr std::array<std::string_view, 8> kBlocks{"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
  if (values.empty() || width == 0) return {};
  std::vector<double> shown;
  if (values.size() <= width) {
    shown = values;
  } else {
    for (size_t i = 0; i < width; ++i)
      shown.push_back(values[i * (values.size() - 1) / (width - 1)]);
  }
  const auto [low, high] = std::minmax_element(shown.begin(), shown.end());
  std::string out;
  for (double v : shown) {
    // A flat series sits on the lowest block.
    const double level = *high > *low ? (v - *low) / (*high - *low) : 0;
    out += kBlocks[std::min<size_t>(7, static_cast<size_t>(level * 7 + 0.5))];
  }
  return out;
}

}  // namespace sealint::output
