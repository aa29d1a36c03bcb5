#pragma once
// Python builtins, as far as leaks care.
#include "analyzer/knowledge/name_set.h"

namespace sealint::knowledge {

// Builtins whose result is a plain Python value: no tensor, no graph (`float(loss)`).
inline constexpr auto kBuiltinsWithPlainResult = sorted_names(
    "bool", "callable", "float", "format", "hasattr", "hash", "id", "int", "isinstance",
    "issubclass", "len", "print", "range", "repr", "round", "str", "type");

}  // namespace sealint::knowledge
