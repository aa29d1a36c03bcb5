#pragma once
// What a `with` item or a decorator does to autograd: torch.no_grad(), inference_mode(),
// enable_grad(), set_grad_enabled(False), whatever name the file imported them under.
#include "analyzer/ir/ir.h"

namespace sealint::ir {

[[nodiscard]] GuardKind classify_guard(const Module& module, const Expr* context);

// The guard a function's decorators put around its body (`@torch.no_grad()`), Other if none.
[[nodiscard]] GuardKind decorator_guard(const Module& module, const Function& function);

}  // namespace sealint::ir
