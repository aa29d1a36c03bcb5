#pragma once
// What a `with` item or a decorator does to autograd: torch.no_grad(), inference_mode(),
// enable_grad(), set_grad_enabled(False), whatever name the file imported them under.
#include "analyzer/ir/ir.h"

namespace sealint::ir {

[[nodiscard]] GuardKind classify_guard(const Module& module, const Expr* context);

// True for the kinds under which no autograd graph is recorded.
[[nodiscard]] constexpr bool disables_grad(GuardKind kind) {
  switch (kind) {
    case GuardKind::NoGrad:
    case GuardKind::InferenceMode:
    case GuardKind::SetGradEnabledFalse:
      return true;
    case GuardKind::EnableGrad:
    case GuardKind::Other:
      return false;
  }
  return false;
}

// The guard a function's decorators put around its body (`@torch.no_grad()`), Other if none.
[[nodiscard]] GuardKind decorator_guard(const Module& module, const Function& function);

}  // namespace sealint::ir
