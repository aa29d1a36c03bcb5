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
// The same for `value`: `template item<float>()` on a value whose type a C++ template leaves
// dependent (`loss.item<float>()` does not compile there).
[[nodiscard]] std::string_view item_method(const ir::Module& module, const ir::Expr& value);

// The fix that calls `.item()` on `value` (unsafe: it synchronises with the device every
// iteration and turns a tensor into a float).
[[nodiscard]] Fix item_fix(const ir::Module& module, const ir::Expr& value);

// Where lines go that run right after `stmt`, at its indentation: the start of the line after
// its last one, and the newline to write first when the file's last line has none.
struct LinesAfter {
  uint32_t offset = 0;
  std::string indent;
  std::string newline;
};
[[nodiscard]] LinesAfter lines_after(const ir::Module& module, const ir::Stmt& stmt);

}  // namespace sealint::rules
