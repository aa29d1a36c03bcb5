#pragma once
// A sorted, duplicate-free set of API names, checked when it is compiled: a table that is out of
// order or names something twice does not build. Lookup is a binary search.
#include <algorithm>
#include <array>
#include <cstddef>
#include <span>
#include <string_view>

namespace sealint::knowledge {

template <size_t N>
struct NameSet {
  std::array<std::string_view, N> names;

  [[nodiscard]] constexpr bool contains(std::string_view name) const {
    return std::binary_search(names.begin(), names.end(), name);
  }
  [[nodiscard]] constexpr std::span<const std::string_view> all() const { return names; }
};

// Builds a NameSet, refusing at compile time a list that is not sorted or not unique (a throw
// in a consteval function is a compile error, which names this line).
template <typename... Names>
consteval auto sorted_names(Names... names) {
  NameSet<sizeof...(Names)> set{{std::string_view(names)...}};
  for (size_t i = 1; i < set.names.size(); ++i) {
    if (!(set.names[i - 1] < set.names[i])) throw "a knowledge table must be sorted and unique";
  }
  return set;
}

}  // namespace sealint::knowledge
