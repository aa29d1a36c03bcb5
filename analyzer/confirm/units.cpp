#include "analyzer/confirm/units.h"

#include <cmath>

#include <fmt/format.h>

namespace sealint::confirm {

std::string bytes_text(double bytes) {
  const double magnitude = std::fabs(bytes);
  if (magnitude >= 1024.0 * 1024 * 1024)
    return fmt::format("{:.1f} GiB", bytes / (1024.0 * 1024 * 1024));
  if (magnitude >= 1024.0 * 1024) return fmt::format("{:.1f} MiB", bytes / (1024.0 * 1024));
  if (magnitude >= 1024.0) return fmt::format("{:.1f} KiB", bytes / 1024.0);
  return fmt::format("{:.0f} B", bytes);
}

std::string count_text(double value) {
  return std::fabs(value - std::round(value)) < 0.05 ? fmt::format("{:.0f}", value)
                                                     : fmt::format("{:.1f}", value);
}

std::string counted(double value, std::string_view noun) {
  const std::string number = count_text(value);
  return fmt::format("{} {}{}", number, noun, number == "1" ? "" : "s");
}

std::string grouped(uint64_t value) {
  // Built by appending: g++ 12 warns (-Wrestrict, a false positive) on std::string::insert.
  const std::string digits = std::to_string(value);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace sealint::confirm
