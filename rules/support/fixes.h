#pragma once
// Fixes and code that helps and fixes build, shared by the rules.
#include <string>
#include <string_view>

#include "analyzer/core/diagnostic.h"
#include "analyzer/ir/ir.h"

namespace sealint::rules {

// `text.method` with parentheses around `text` when the expression needs them: `loss.item()`,
// `(total / n).item()`.
[[nodiscard]] std::string method_on(const ir::Expr& expr, std::string_view text,
                                    std::string_view method);

// `detach().item()` in Python (PyTorch 2.9 warns on `.item()` of a tensor that requires grad),
// `item<float>()` in C++ (LibTorch's item is a template).
[[nodiscard]] std::string_view item_method(const ir::Module& module);

// The fix that calls `.item()` on `value` (unsafe: it synchronises with the device every
// iteration and turns a tensor into a float).
[[nodiscard]] Fix item_fix(const ir::Module& module, const ir::Expr& value);

}  // namespace sealint::rules
