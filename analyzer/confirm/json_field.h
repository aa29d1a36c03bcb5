#pragma once
// Reading the probe's documents: by reference, since `json::value(key, default)` returns a copy and
// a result's loops and variables hold series of up to --steps samples each; and by type, since
// `value(key, default)` throws when the member exists with another type and `get<long>()` of
// 1e300 is undefined. A member of the wrong type reads as absent (fuzzed: tests/fuzz/).
#include <cstdint>
#include <optional>
#include <string>

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

// The member `key` when it is a string, else `fallback`.
[[nodiscard]] inline std::string text_field(const nlohmann::json& object, const char* key,
                                            const std::string& fallback = {}) {
  const nlohmann::json& member = field(object, key);
  return member.is_string() ? member.get<std::string>() : fallback;
}

// The member `key` when it is an integer that fits in int64 (JSON integers past it are read as
// unsigned), else nullopt.
[[nodiscard]] inline std::optional<int64_t> integer_field(const nlohmann::json& object,
                                                          const char* key) {
  const nlohmann::json& member = field(object, key);
  if (member.is_number_unsigned()) {
    const auto value = member.get<uint64_t>();
    if (value > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
    return static_cast<int64_t>(value);
  }
  if (member.is_number_integer()) return member.get<int64_t>();
  return std::nullopt;
}

}  // namespace sealint::confirm
