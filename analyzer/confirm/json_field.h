#pragma once
// Reading the probe's documents without copying them: `json::value(key, default)` returns a copy,
// and a result's loops and variables hold series of up to --steps samples each.
#include <nlohmann/json.hpp>

namespace sealint::confirm {

// The member `key` of `object` by reference; null when `object` is not an object or lacks it
// (a null iterates as an empty range).
[[nodiscard]] inline const nlohmann::json& field(const nlohmann::json& object, const char* key) {
  static const nlohmann::json kNull;  // immutable: shared by every caller
  if (!object.is_object()) return kNull;
  const auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

}  // namespace sealint::confirm
