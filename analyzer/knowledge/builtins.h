#pragma once
// Python builtins, as far as leaks care.
#include "analyzer/knowledge/name_set.h"

namespace sealint::knowledge {

// Builtins whose result is a plain Python value: no tensor, no graph (`float(loss)`).
inline constexpr auto kBuiltinsWithPlainResult = sorted_names(
    "bool", "callable", "float", "format", "hasattr", "hash", "id", "int", "isinstance",
    "issubclass", "len", "print", "range", "repr", "round", "str", "type");

// Builtins that never run a training step: calling one again in an `except` handler retries
// nothing (`print(...)`, `len(batch)`, `super().__init__()`).
inline constexpr auto kBuiltinsRunningNoStep = sorted_names(
    "bool", "callable", "dict", "enumerate", "float", "format", "getattr", "hasattr", "int",
    "isinstance", "issubclass", "iter", "len", "list", "max", "min", "next", "open", "print",
    "range", "repr", "set", "setattr", "sorted", "str", "sum", "super", "tuple", "type", "zip");

}  // namespace sealint::knowledge
