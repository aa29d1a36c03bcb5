#include "analyzer/confirm/result_access.h"

#include <algorithm>
#include <string>

#include "analyzer/confirm/json_field.h"

namespace sealint::confirm {

using nlohmann::json;

Series series_of(const json& owner, std::string_view metric) {
  Series out;
  const json& values = field(field(owner, "series"), std::string(metric).c_str());
  if (!values.is_array()) return out;
  for (const json& v : values) {
    if (v.is_number()) {
      out.emplace_back(v.get<double>());
    } else if (v.is_boolean()) {
      out.emplace_back(v.get<bool>() ? 1.0 : 0.0);
    } else {
      out.emplace_back(std::nullopt);
    }
  }
  return out;
}

std::vector<double> present(const Series& series) {
  std::vector<double> out;
  for (const auto& v : series)
    if (v) out.push_back(*v);
  return out;
}

std::optional<size_t> index_of(const json& value) {
  if (!value.is_number_integer() || value.get<long long>() < 0) return std::nullopt;
  return value.get<size_t>();
}

const json* element(const json& array, const json& index) {
  if (!array.is_array() || !index_of(index)) return nullptr;
  const size_t i = *index_of(index);
  return i < array.size() ? &array[i] : nullptr;
}

const json* finding_result(const json& result, size_t id) {
  const json& findings = field(result, "findings");
  if (!findings.is_array()) return nullptr;
  for (const json& f : findings) {
    if (f.is_object() && index_of(field(f, "id")) == id) return &f;
  }
  return nullptr;
}

const json* loop_of(const json& result, const json& found) {
  const json* loop = element(field(result, "loops"), field(found, "loop"));
  return loop != nullptr && loop->is_object() ? loop : nullptr;
}

size_t longest_series(const json& owner) {
  size_t longest = 0;
  const json& series = field(owner, "series");
  if (!series.is_object()) return longest;
  for (const auto& [metric, values] : series.items())
    if (values.is_array()) longest = std::max(longest, values.size());
  return longest;
}

}  // namespace sealint::confirm
