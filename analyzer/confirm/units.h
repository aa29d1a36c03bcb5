#pragma once
// Numbers in verdicts, the way people read them: "73.2 MiB", "7", "1 autograd node", "32,456".
#include <cstdint>
#include <string>
#include <string_view>

namespace sealint::confirm {

[[nodiscard]] std::string bytes_text(double bytes);  // binary units, one decimal
[[nodiscard]] std::string count_text(double value);  // whole when it is, else one decimal
// "1 autograd node", "7 autograd nodes", "1.5 autograd nodes".
[[nodiscard]] std::string counted(double value, std::string_view noun);
[[nodiscard]] std::string grouped(uint64_t value);  // thousands separated by commas

}  // namespace sealint::confirm
