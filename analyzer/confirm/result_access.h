#pragma once
// Reading the series and entries of the probe's result (docs/confirm.md, "Result") by plan id:
// what the verdicts and the HTML report both read, each value checked for its type.
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace sealint::confirm {

// One value per sample; nullopt where nothing was measured at that sample.
using Series = std::vector<std::optional<double>>;

// The series named `metric` of an object's "series" (a loop's, a variable's), numbers and
// booleans as numbers; empty when there is none.
[[nodiscard]] Series series_of(const nlohmann::json& owner, std::string_view metric);

// The values a series has, in order.
[[nodiscard]] std::vector<double> present(const Series& series);

// A non-negative integer (parsed JSON has them unsigned, built JSON signed).
[[nodiscard]] std::optional<size_t> index_of(const nlohmann::json& value);

// `array[index]`, or null when either is not what it should be or the index is past the end.
[[nodiscard]] const nlohmann::json* element(const nlohmann::json& array,
                                            const nlohmann::json& index);

// The result's entry for plan id `id` (a finding or a watched loop); null when it has none.
[[nodiscard]] const nlohmann::json* finding_result(const nlohmann::json& result, size_t id);

// The loop (region) the entry `found` was measured in; null without one.
[[nodiscard]] const nlohmann::json* loop_of(const nlohmann::json& result,
                                            const nlohmann::json& found);

// The length of the longest series an object (a variable, a loop) has.
[[nodiscard]] size_t longest_series(const nlohmann::json& owner);

}  // namespace sealint::confirm
