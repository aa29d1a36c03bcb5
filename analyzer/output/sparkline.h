#pragma once
// A series as a row of block characters (▁▂▃▄▅▆▇█), for confirm mode's text output.
#include <string>
#include <vector>

namespace sealint::output {

// At most `width` characters: a longer series is sampled evenly, first and last kept.
[[nodiscard]] std::string sparkline(const std::vector<double>& values, size_t width = 24);

}  // namespace sealint::output
